import CHeap

/// The bytes malloc has handed out and not taken back (glibc's mallinfo2), for the
/// memory a fetch's result keeps alive: the objects, arrays and row snapshots a
/// context holds once the fetch returns — the lab's counterpart of the "idle memory"
/// the WWDC sessions read in Instruments. SQLite allocates through the same malloc,
/// so growth of the connection's page cache is included.
package enum HeapProbe {
    /// Bytes in use now, or 0 where mallinfo2 is unavailable.
    package static func inUseBytes() -> Int64 { Int64(schemalab_heap_in_use()) }

    /// Gives malloc's free pages back to the system (`malloc_trim(0)`). Called before a
    /// case's memory baseline: without it, a case reuses the pages earlier cases freed and
    /// its resident-set growth reads 0; after it, growth counts the pages this case touches.
    package static func trim() { schemalab_heap_trim() }
}
