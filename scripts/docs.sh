#!/usr/bin/env bash
# Builds the DocC catalog of every library module with the toolchain's own `docc`: no plugin, no
# package dependency. A broken symbol or article link, in a catalog or in a doc comment, is an
# error (`--warnings-as-errors`). Output: .build/docs/<Module>.
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

echo "== symbol graphs (public symbols; extensions of other modules' types as extension blocks)"
graphs="$(swift build --show-bin-path)/../symbolgraph"
rm -rf "$graphs"
swift package dump-symbol-graph \
  --minimum-access-level public --skip-synthesized-members --emit-extension-block-symbols

work=.build/docs-graphs
rm -rf "$work" .build/docs
mkdir -p .build/docs
for module in "${modules[@]}"; do
  # Only the module's own graphs: `M.symbols.json` and `M@Other.symbols.json` (M's extensions
  # of Other's types). Another module's graph would turn its symbols into pages of this one.
  mkdir -p "$work/$module"
  cp "$graphs/$module.symbols.json" "$work/$module/"
  find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$work/$module/" \;

  echo "== docc convert $module"
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$work/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.statestore.$module" \
    --fallback-default-module-kind "Library" \
    --output-path ".build/docs/$module" \
    --ide-console-output \
    --warnings-as-errors
done
echo "== documentation in .build/docs/"
