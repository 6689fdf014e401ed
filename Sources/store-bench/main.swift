import Foundation

// store-bench: the store's cost per dispatch against plain-code floors measured in the same run.
// See Docs/Performance.md for the workloads, the floors and the figures on the reference machine.

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data("store-bench: \(error.message)\n\n\(Options.usage)\n".utf8))
  exit(2)
}
if options.showHelp {
  print(Options.usage)
  exit(0)
}

if let side = options.memoryProbe {
  guard let bytes = await MemoryProbe.measure(side) else { exit(1) }
  print(bytes)
  exit(0)
}

let info = RunInfo.current()
let results = await runSuite(options)
if options.json {
  do {
    try printJSON(results, run: info)
  } catch {
    FileHandle.standardError.write(Data("store-bench: cannot encode the results: \(error)\n".utf8))
    exit(1)
  }
} else {
  printTable(results, mode: options.mode, run: info)
}
let failed = results.filter { !$0.correct }
if !failed.isEmpty {
  FileHandle.standardError.write(
    Data(
      "store-bench: correctness checks failed in \(failed.map(\.workload).joined(separator: ", "))\n"
        .utf8))
  exit(1)
}
