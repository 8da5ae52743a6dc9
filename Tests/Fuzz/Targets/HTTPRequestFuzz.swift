import SkillHTTP

/// The HTTP/1.1 request parser of `skillhost mcp --http` (SkillHTTP), on bytes any client can send. The first
/// byte picks the piece size the bytes arrive in (1–64); the rest is the stream. Read in pieces, as a
/// connection's reads deliver it, it must give what reading it whole gives: the same requests (method, target,
/// body) and the same refusal. A head longer than the limit is refused from whichever piece shows it.
func fuzzHTTPRequest(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let stream = Array(input.dropFirst())
    var limits = HTTPServerLimits()
    limits.maximumHeadBytes = 2048
    limits.maximumBodyBytes = 65536
    let whole = HTTPRequestReading(stream, pieces: max(stream.count, 1), limits: limits)
    let pieced = HTTPRequestReading(stream, pieces: Int(first % 64) + 1, limits: limits)
    if pieced != whole { fatalError("in pieces of \(first % 64 + 1) bytes the stream reads \(pieced), whole it reads \(whole)") }
}
