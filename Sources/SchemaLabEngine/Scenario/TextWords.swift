/// The default vocabulary of the `text` generator.
enum TextWords {
    static let defaultWords = [
        "harbour", "market", "street", "avenue", "old", "town", "river", "bridge", "park", "garden", "station",
        "north", "south", "east", "west", "hill", "lake", "view", "castle", "square", "beach", "tower", "church",
        "museum", "sunset", "morning", "evening", "city", "road", "village", "coast", "island", "valley",
    ]
}
