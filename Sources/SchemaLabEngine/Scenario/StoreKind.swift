/// What store a repetition runs on.
package enum StoreKind: Sendable {
    /// A new empty store for every repetition (inserting the data set).
    case empty
    /// The store filled once with the data set, shared by every repetition (reads).
    case filled
    /// A fresh copy of the filled store for every repetition (writes into existing data).
    case filledCopy

    /// True when a repetition changes its store, so the next one needs a new one.
    package var isFreshPerRepetition: Bool { self != .filled }
}
