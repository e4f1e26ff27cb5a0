import EPFCatalogCore

/// The kinds of software Apple's Search API tells apart (`entity=`), by
/// the devices an application runs on (`application_device_type`, named in
/// `device_type`).
public enum SoftwareEntity: String, Sendable, CaseIterable {
    /// iPhone (and iPod touch) applications: Apple's `software`.
    case software
    /// iPad applications.
    case iPadSoftware
    /// Mac applications.
    case macSoftware

    /// The `device_type.name` values (compared case-insensitively) of the
    /// devices this entity runs on.
    package var deviceNames: [String] {
        switch self {
        case .software: ["iPhone", "iPod touch"]
        case .iPadSoftware: ["iPad"]
        case .macSoftware: ["Mac"]
        }
    }

    /// The entity Apple's API calls `name` (case-insensitively), or nil.
    public init?(apiName name: String) {
        guard let entity = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = entity
    }
}
