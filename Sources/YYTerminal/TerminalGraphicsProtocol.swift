/// How a terminal can show pictures.
package enum TerminalGraphicsProtocol: String, Sendable, CaseIterable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm).
    case iterm
    /// Sixel images (xterm -ti vt340, foot, mlterm, Windows Terminal).
    case sixel
    /// Unicode half blocks with colours: works everywhere, and the only choice inside tmux.
    case blocks

    /// The query that finds out what the terminal supports: a kitty graphics query (a 1×1 image
    /// that is never stored), then Primary Device Attributes, which every terminal answers, so
    /// that the answer to the first has arrived when the answer to the second has.
    package static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c".utf8)

    /// Whether `reply` holds the complete answer to ``query`` (the device attributes end in `c`).
    package static func isCompleteReply(_ reply: [UInt8]) -> Bool {
        deviceAttributes(in: reply) != nil
    }

    /// The protocol to use, from the environment and the terminal's reply to ``query``
    /// (`nil` when it was not asked or did not answer in time).
    ///
    /// Inside tmux (or GNU screen) graphics need passthrough and break easily: blocks. iTerm2 is
    /// known from its environment; kitty from its reply; sixel from attribute 4 of the device
    /// attributes.
    package static func detect(environment: [String: String], reply: [UInt8]?) -> TerminalGraphicsProtocol {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return .blocks }
        if environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        guard let reply else { return .blocks }
        if contains(reply, Array("_Gi=31;OK".utf8)) { return .kitty }
        if deviceAttributes(in: reply)?.contains(4) == true { return .sixel }
        return .blocks
    }

    /// The parameters of a Primary Device Attributes reply (`ESC [ ? 62 ; 4 ; 22 c`).
    static func deviceAttributes(in reply: [UInt8]) -> [Int]? {
        let introducer = Array("\u{1B}[?".utf8)
        guard let start = firstIndex(of: introducer, in: reply) else { return nil }
        var parameters: [Int] = []
        var current = 0
        var index = start + introducer.count
        while index < reply.count {
            let byte = reply[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): current = min(current * 10 + Int(byte - 48), 1_000_000)
            case UInt8(ascii: ";"): parameters.append(current); current = 0
            case UInt8(ascii: "c"): return parameters + [current]
            default: return nil
            }
            index += 1
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        firstIndex(of: needle, in: haystack) != nil
    }
}
