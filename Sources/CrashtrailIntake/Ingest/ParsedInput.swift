/// What the workers made of one input (a file or a line): its payloads' steps, and how many payloads it held.
struct ParsedInput: Sendable {
    var steps: [PayloadProcessor.IngestStep]
    var inputs: Int
}
