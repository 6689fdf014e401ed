#!/usr/bin/env bash
# Builds the DocC catalog of every library module with the toolchain's own `docc`: no plugin, no
# package dependency. A broken symbol or article link, in a catalog or in a doc comment, is an
# error (`--warnings-as-errors`). Output: .build/docs/<Module>.
#
# Each catalog is built twice: with the public symbols, the documentation users read, and once
# more with every symbol down to `private` (output thrown away), so that a stale symbol link in
# the doc comment of an internal or package declaration fails too; the public build never reads
# those comments. `private`, not `internal`: the symbol graph leaves names that begin with `_`
# out at any higher level, and most of the internals that those comments link to carry one.
#
# Usage: scripts/docs.sh            (DOCC=/path/to/docc to use another docc)
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(StateStore SideEffects Navigation ActionLog StatePersistence StateStoreTesting StateStoreUI)

# `docc` ships next to `swift` in the toolchain; fall back to the usual Linux install path.
docc="${DOCC:-}"
if [[ -z "$docc" ]]; then
  if command -v docc >/dev/null; then
    docc="$(command -v docc)"
  elif [[ -x "$(dirname "$(readlink -f "$(command -v swift)")")/docc" ]]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
  else
    docc=/opt/swift/usr/bin/docc
  fi
fi

graphs="$(swift build --show-bin-path)/../symbolgraph"

# convert LEVEL OUTPUT: dumps the symbol graphs of LEVEL and above, then builds every catalog
# into OUTPUT/<Module>, failing on any warning.
convert() {
  local level="$1" output="$2"
  echo "== symbol graphs ($level symbols and above; extensions of other modules' types as extension blocks)"
  rm -rf "$graphs"
  swift package dump-symbol-graph \
    --minimum-access-level "$level" --skip-synthesized-members --emit-extension-block-symbols

  local work=.build/docs-graphs
  rm -rf "$work" "$output"
  mkdir -p "$output"
  for module in "${modules[@]}"; do
    # Only the module's own graphs: `M.symbols.json` and `M@Other.symbols.json` (M's extensions
    # of Other's types). Another module's graph would turn its symbols into pages of this one.
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$work/$module/" \;

    echo "== docc convert $module ($level)"
    "$docc" convert "Sources/$module/$module.docc" \
      --additional-symbol-graph-dir "$work/$module" \
      --fallback-display-name "$module" \
      --fallback-bundle-identifier "org.statestore.$module" \
      --fallback-default-module-kind "Library" \
      --output-path "$output/$module" \
      --ide-console-output \
      --warnings-as-errors
  done
}

# The internal build first: the public one's graphs are left for tools that read them.
convert private .build/docs-internal
rm -rf .build/docs-internal
convert public .build/docs
echo "== documentation in .build/docs/"
