import SkillJSON

extension SkillError {
    /// An invalid-arguments error at the JSON pointer of a decoding failure, e.g. "/items/0/time".
    init(decodingError: DecodingError) {
        let path: [any CodingKey]
        let message: String
        switch decodingError {
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            message = "missing required member \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
            message = context.debugDescription
        @unknown default:
            path = []
            message = "\(decodingError)"
        }
        let pointer = SkillError.pointer(path)
        let place = pointer.isEmpty ? "the arguments" : pointer
        self = .invalidArguments(field: pointer, message: "\(place): \(message)")
    }

    /// The RFC 6901 pointer of a coding path.
    static func pointer(_ path: [any CodingKey]) -> String {
        path.reduce("") { pointer, key in
            JSONPointer.appending(pointer, key is IndexKey ? String(key.intValue ?? 0) : key.stringValue)
        }
    }
}
