/// How far a run of an `ImportPlan` has got, over the whole plan: which of
/// its inputs (table files, or feed archives, each one input) it has
/// reached, the bytes of them done, and the time left at the pace so far.
/// Kept from the importer's events (`record`), so that whatever shows
/// progress (the command line's status line, a log) says the same.
///
/// Bytes are the inputs' bytes as stored (compressed bytes for a
/// compressed file or archive), as `ImportEvent.progress` counts them.
/// The time left (`secondsLeft`) is the rest of each input being read at
/// its own pace (tables differ: a byte of prices is many more rows than a
/// byte of descriptions), and the inputs not started at the pace of the
/// whole run so far. Paces count only bytes read in this run: a load that
/// resumes passes over what an earlier run loaded, and an input that is
/// never read (a unit refused before it, a load already staged) is done
/// without taking any time, so neither makes the rest look quicker than
/// it is. While a key index is built there is no estimate: that step's
/// time does not follow from bytes.
package struct ImportPosition: Sendable {
    /// How many inputs the plan has.
    package let inputCount: Int
    /// Their bytes, all together.
    package let totalBytes: Int64
    /// How many inputs have started (the one being read is the last).
    package private(set) var inputsStarted = 0
    /// Bytes of the inputs finished, and read of those being read.
    package var bytesDone: Int64 { finishedBytes + inFlight.values.reduce(0) { $0 + $1.bytes } }
    /// Bytes read in this run (what the pace is measured by).
    package private(set) var bytesWorked: Int64 = 0

    private let sizes: [String: Int64]
    private let unitInputs: [String: [String]]
    private let archives: [String]
    private var started: Set<String> = []
    private var finished: Set<String> = []
    private var finishedBytes: Int64 = 0
    /// Inputs being read: bytes read so far; whether the next progress is
    /// the first after a resume (its bytes were loaded by an earlier run);
    /// the first progress read in this run (bytes, seconds), the pace's
    /// start; whether its key index is being built.
    private var inFlight: [String: InFlight] = [:]

    private struct InFlight {
        var bytes: Int64 = 0
        var resumed = false
        var paceStart: (bytes: Int64, at: Double)?
        var buildingKey = false
    }

    /// The position before `plan` starts.
    package init(plan: ImportPlan) {
        var sizes: [String: Int64] = [:]
        var unitInputs: [String: [String]] = [:]
        var archives: [String] = []
        for unit in plan.units {
            var inputs: [String] = []
            if let archive = unit.archive {
                sizes[archive.path] = archive.size
                inputs.append(archive.path)
                archives.append(archive.path)
            }
            for file in unit.files {
                sizes[file.path] = file.size
                inputs.append(file.path)
            }
            unitInputs[unit.path, default: []] += inputs
        }
        self.sizes = sizes
        self.unitInputs = unitInputs
        // Longest first, so that an entry finds its own archive.
        self.archives = archives.sorted { $0.count > $1.count }
        inputCount = sizes.count
        totalBytes = sizes.values.reduce(0, +)
    }

    /// Takes in what happened, `seconds` into the run.
    package mutating func record(_ event: ImportEvent, at seconds: Double) {
        switch event {
        case .fileStarted(let path, _, _):
            guard let input = input(of: path), !finished.contains(input) else { return }
            if started.insert(input).inserted { inputsStarted += 1 }
            inFlight[input, default: InFlight()].buildingKey = false
        case .resumed(let path):
            guard let input = input(of: path), !finished.contains(input) else { return }
            inFlight[input, default: InFlight()].resumed = true
        case .progress(let path, let bytesRead, _, _):
            guard let input = input(of: path), !finished.contains(input), let size = sizes[input] else { return }
            let now = min(max(bytesRead, 0), size)
            var state = inFlight[input] ?? InFlight()
            if state.resumed {
                // Loaded by an earlier run: done, not worked.
                state.resumed = false
            } else if now > state.bytes {
                bytesWorked += now - state.bytes
            }
            state.bytes = max(now, state.bytes)
            if state.paceStart == nil { state.paceStart = (state.bytes, seconds) }
            inFlight[input] = state
        case .buildingKey(let path, _):
            guard let input = input(of: path), !finished.contains(input) else { return }
            inFlight[input, default: InFlight()].buildingKey = true
        case .fileFinished(let report):
            // An archive is done when its unit is: its entries end one by one.
            guard let input = input(of: report.path) else { return }
            if archives.contains(input) {
                inFlight[input]?.buildingKey = false
            } else {
                finish(input)
            }
        case .unitFinished(let path, _):
            for input in unitInputs[path] ?? [] { finish(input) }
        case .applying, .note, .skipped, .scheduled:
            break
        }
    }

    /// Seconds left, `seconds` into the run; nil until there is a pace to
    /// go by (some bytes read, a second gone) and while a key index is
    /// built.
    package func secondsLeft(at seconds: Double) -> Double? {
        guard seconds >= 1, bytesWorked > 0, !inFlight.values.contains(where: \.buildingKey) else { return nil }
        let runPace = seconds / Double(bytesWorked)
        var left = 0.0
        var inFlightSizes: Int64 = 0
        for (input, state) in inFlight {
            let size = sizes[input] ?? 0
            inFlightSizes += size
            let remaining = max(0, size - state.bytes)
            if let start = state.paceStart, seconds - start.at >= 1, state.bytes > start.bytes {
                left += Double(remaining) * (seconds - start.at) / Double(state.bytes - start.bytes)
            } else {
                left += Double(remaining) * runPace
            }
        }
        let notStarted = max(0, totalBytes - finishedBytes - inFlightSizes)
        return left + Double(notStarted) * runPace
    }

    private mutating func finish(_ input: String) {
        guard let size = sizes[input], finished.insert(input).inserted else { return }
        if started.insert(input).inserted { inputsStarted += 1 }
        finishedBytes += size
        inFlight[input] = nil
    }

    /// The input an event's path belongs to: itself, or the archive it is
    /// an entry of (`archive:entry`).
    private func input(of path: String) -> String? {
        if sizes[path] != nil { return path }
        return archives.first { path.hasPrefix($0 + ":") }
    }
}
