/// A Redis Cluster redirection, read from an error reply: `MOVED <slot> <host>:<port>` (the slot
/// lives elsewhere now: ask there, and remember it) or `ASK <slot> <host>:<port>` (the slot is
/// being migrated: ask there once, after `ASKING`, and remember nothing).
struct ClusterRedirect: Equatable {
    enum Kind: Equatable {
        case moved
        case ask
    }

    var kind: Kind
    var slot: Int
    /// The host to ask; empty when the server does not know its own endpoint (then it is the host
    /// of the node that answered, RESP's "unknown endpoint").
    var host: String
    var port: Int
}

extension ClusterRedirect {
    /// The redirection an error message carries, or `nil` for any other error.
    init?(errorMessage message: String) {
        let words = message.split(separator: " ")
        guard words.count == 3 else { return nil }
        switch words[0] {
        case "MOVED": kind = .moved
        case "ASK": kind = .ask
        default: return nil
        }
        // The port follows the last colon: an IPv6 host has colons of its own.
        guard let slot = Int(words[1]), (0..<HashSlot.count).contains(slot),
            let colon = words[2].lastIndex(of: ":"),
            let port = Int(words[2][words[2].index(after: colon)...]), (1...65535).contains(port)
        else { return nil }
        self.slot = slot
        self.host = String(words[2][..<colon])
        self.port = port
    }
}
