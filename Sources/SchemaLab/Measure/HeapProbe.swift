import CHeap

/// The bytes malloc has handed out and not taken back (glibc's mallinfo2), for the
/// memory a fetch's result keeps alive: the objects, arrays and row snapshots a
/// context holds once the fetch returns — the lab's counterpart of the "idle memory"
/// the WWDC sessions read in Instruments. SQLite allocates through the same malloc,
/// so growth of the connection's page cache is included.
public enum HeapProbe {
    /// Bytes in use now, or 0 where mallinfo2 is unavailable.
    public static func inUseBytes() -> Int64 { Int64(schemalab_heap_in_use()) }
}
