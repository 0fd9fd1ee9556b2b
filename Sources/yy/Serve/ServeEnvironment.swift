import Foundation

/// `YY_SERVE_<NAME>` environment variables as `yy serve` arguments: each option not given on the
/// command line is taken from the environment (flags win). Repeatable options take
/// comma-separated values; a flag is on for `1`, `true` or `yes`.
enum ServeEnvironment {
    /// How an option takes its value.
    enum Kind { case value, repeatable, flag }

    /// Every option of `yy serve` (the help lists the variables beside the options, and a test
    /// checks that the two lists name the same options).
    static let options: [(name: String, kind: Kind)] = [
        ("host", .value), ("port", .value), ("key", .repeatable), ("salt", .repeatable), ("signature-size", .value),
        ("cache-dir", .value), ("redis", .value), ("redis-namespace", .value), ("redis-ca-file", .value), ("redis-cluster", .flag),
        ("no-result-cache", .flag), ("allowed-source", .repeatable), ("allow-loopback-sources", .flag),
        ("allow-private-sources", .flag), ("allow-security-options", .flag), ("deny-source-network", .repeatable), ("root", .value),
        ("playground", .flag),
        ("playground-source", .repeatable),
        ("workers", .value), ("queue", .value), ("metrics-port", .value), ("preset", .repeatable), ("max-source-bytes", .value),
        ("max-source-pixels", .value), ("max-result-side", .value),
        ("max-result-pixels", .value), ("max-render-memory", .value), ("max-frames", .value), ("download-timeout", .value),
        ("processing-timeout", .value), ("shutdown-timeout", .value),
        ("idle-timeout", .value), ("max-connections", .value), ("ttl", .value), ("no-avif", .flag), ("no-webp", .flag),
        ("watermark-path", .value), ("watermark-url", .value), ("watermark-data", .value),
        ("watermark-opacity", .value), ("fallback-image-path", .value), ("fallback-image-url", .value), ("fallback-image-data", .value),
        ("fallback-image-http-code", .value), ("fallback-image-ttl", .value), ("only-presets", .flag),
        ("allowed-processing-option", .repeatable), ("secret", .value), ("allow-origin", .value), ("base-url", .value),
        ("enable-jxl", .flag), ("preferred-formats", .value), ("enable-client-hints", .flag), ("avif-speed", .value), ("shrink-on-load-gap", .value),
        ("log-format", .value), ("log-level", .value),
    ]

    /// `YY_SERVE_<NAME>` for every option, in the table's order.
    static var variableNames: [String] { options.map { variable(for: $0.name) } }

    /// The variable of the option `--name`.
    static func variable(for name: String) -> String {
        "YY_SERVE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// `arguments` (after `serve`) with the environment's options added for those not given.
    static func arguments(_ arguments: [String], environment: [String: String]) -> [String] {
        var result = arguments
        for (name, kind) in options {
            let flag = "--" + name
            let given = arguments.contains { $0 == flag || $0.hasPrefix(flag + "=") }
            guard !given, let value = environment[variable(for: name)], !value.isEmpty else { continue }
            switch kind {
            case .value:
                result += [flag, value]
            case .repeatable:
                for item in value.split(separator: ",") { result += [flag, String(item)] }
            case .flag:
                if ["1", "true", "yes"].contains(value.lowercased()) { result.append(flag) }
            }
        }
        return result
    }
}
