/// A save refused because an object of an abstract entity was inserted: as in Core Data, an
/// abstract entity has no instances of its own, only of its sub-entities.
package struct AbstractEntityError: Error, CustomStringConvertible, Sendable {
    package let entity: String

    package var description: String {
        "\(entity) is abstract: insert objects of one of its sub-entities instead"
    }
}
