import SkillJSON

/// The JSON document of a model API's answer, shared by the providers' response decoders.
enum AnswerDocument {
    /// `body` parsed as JSON.
    /// - Parameter endpoint: what the base URL should point at, for the fix in the message ("an
    ///   OpenAI-compatible /v1 endpoint").
    /// - Throws: ``ModelProviderError`` (`invalidResponse`) when the body is not JSON.
    static func parse(_ body: [UInt8], endpoint: String) throws(ModelProviderError) -> JSONValue {
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw ModelProviderError(
                .invalidResponse, "the server's answer is not JSON (\(error)); check that the base URL points at \(endpoint)")
        }
    }
}
