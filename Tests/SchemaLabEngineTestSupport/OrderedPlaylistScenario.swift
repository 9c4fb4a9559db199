/// The ordered relationships' scenario (the engine's tests of their storage, and the CLI's
/// runs of it): playlists with ordered songs and tags in `ordered`, songs with a position
/// attribute in `position`, and a reorder workload of each operation.
package enum OrderedPlaylistScenario {
    /// The scenario's JSON text.
    package static let text = """
        {"format": 1, "name": "ord",
         "variants": [{"name": "ordered", "entities": [
           {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "ordered": true, "inverse": "playlist", "deleteRule": "cascade"},
                              {"name": "tags", "destination": "Tag", "toMany": true, "ordered": true, "inverse": "playlists"}]},
           {"name": "Song", "attributes": [{"name": "title", "type": "string"}],
            "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]},
           {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
            "relationships": [{"name": "playlists", "destination": "Playlist", "toMany": true, "inverse": "tags"}]}]},
           {"name": "position", "entities": [
           {"name": "Playlist", "attributes": [{"name": "name", "type": "string"}],
            "relationships": [{"name": "songs", "destination": "Song", "toMany": true, "inverse": "playlist", "deleteRule": "cascade"},
                              {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "playlists"}]},
           {"name": "Song", "attributes": [{"name": "title", "type": "string"}, {"name": "position", "type": "integer32"}],
            "relationships": [{"name": "playlist", "destination": "Playlist", "inverse": "songs"}]},
           {"name": "Tag", "attributes": [{"name": "label", "type": "string"}],
            "relationships": [{"name": "playlists", "destination": "Playlist", "toMany": true, "inverse": "tags"}]}]}],
         "dataset": {"seed": 1, "entity": "Playlist", "counts": [12], "fields": [
           {"field": "name", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}],
           "related": [{"relationship": "songs", "fanOut": {"kind": "uniformInt", "min": 2, "max": 6},
             "fields": [{"field": "title", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}},
                        {"field": "position", "generator": {"kind": "position"}, "optional": true}]},
             {"relationship": "tags", "fanOut": {"kind": "uniformInt", "min": 0, "max": 3},
              "pool": {"count": 10, "fields": [{"field": "label", "generator": {"kind": "text", "minLength": 3, "maxLength": 8}}]}}]},
         "workloads": [
           {"name": "read", "kind": "reorder", "relationship": "songs", "operation": "read", "count": 5, "positionKey": "position"},
           {"name": "insert-middle", "kind": "reorder", "relationship": "songs", "operation": "insertMiddle", "count": 5, "positionKey": "position"},
           {"name": "move", "kind": "reorder", "relationship": "songs", "operation": "move", "count": 5, "positionKey": "position"},
           {"name": "remove", "kind": "reorder", "relationship": "songs", "operation": "remove", "count": 5, "positionKey": "position"},
           {"name": "append", "kind": "reorder", "relationship": "songs", "operation": "append", "count": 5, "positionKey": "position"}]}
        """
}
