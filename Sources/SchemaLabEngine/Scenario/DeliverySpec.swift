/// `deliver`: a write workload's changes delivered to a view context that shows a list (the
/// first `held` objects of a sorted fetch), the way an app's UI hears about a background save
/// or a batch request: `{"mode": "historyNotification", "sort": ["time"], "held": 50}`.
public struct DeliverySpec: Sendable, Equatable {
    /// How the view context learns of the changes.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// `mergeChanges(fromContextDidSave:)` with each save's notification: the objects and
        /// their values come with it (batch requests post none).
        case saveNotification
        /// After each save or batch request, the history after the view's last token is fetched
        /// and each transaction's object-ID notification merged (`mergeChanges(fromRemoteContextSave:into:)`):
        /// refreshed and inserted objects are faults, read again with a query each. Needs a
        /// variant with persistent history.
        case historyNotification
        /// After each save or batch request, the view context is reset and the list fetched again.
        case refetch
    }

    /// `mode`.
    public var mode: Mode
    /// `entity`: the listed entity (nil: the written one).
    public var entity: String?
    /// `sort`: the list's sort descriptors (attributes of the listed entity).
    public var sort: [SortSpec]
    /// `held`: how many objects the list shows (its fetchLimit), default 50.
    public var held: Int
    /// `shows`: the attributes each row displays (read on every object the list takes in).
    public var shows: [String]
    /// `filter` (historyNotification): fetch only the listed entity's changes and skip an
    /// update whose updated properties are none of `sort` and `shows` (WWDC 2018's advice);
    /// false (the default) refreshes on every change of every transaction.
    public var filter: Bool
    /// Its JSON path, for messages.
    public var path: String

    /// The default of `held`.
    public static let defaultHeld = 50

    /// A delivery; `sort` is required.
    public init(
        mode: Mode, entity: String? = nil, sort: [SortSpec], held: Int = DeliverySpec.defaultHeld, shows: [String] = [],
        filter: Bool = false, path: String = ""
    ) {
        self.mode = mode
        self.entity = entity
        self.sort = sort
        self.held = held
        self.shows = shows
        self.filter = filter
        self.path = path
    }
}
