//! `book verify`'s memory stays bounded whatever its input (issue 48,
//! item 23): this test binary counts every byte it allocates, and checks a
//! book of 256 MiB without one line end (as `/dev/zero` gives) holds no
//! more than a few of its longest lines at once.
// A counting allocator is unsafe by its trait's contract: allowed in this
// test binary only.
#![allow(unsafe_code)]

use std::{
    alloc::{GlobalAlloc, Layout, System},
    io::{BufReader, Read as _},
    sync::atomic::{AtomicUsize, Ordering},
};

/// The system allocator, counting bytes held now and at most.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only
// the counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `System`, the caller's layout is passed on.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let now = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` was allocated by `alloc` above with `layout`.
        unsafe { System.dealloc(pointer, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn hundreds_of_megabytes_without_a_line_end_hold_under_a_megabyte() {
    const INPUT: u64 = 256 << 20;
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    // 256 MiB of zero bytes with no line end, then one good line.
    let endless = std::io::repeat(0).take(INPUT);
    let last = "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n";
    let reader = BufReader::with_capacity(64 * 1024, endless.chain(last.as_bytes()));
    let report = c960_book::check_book(reader).unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(report.lines, 2);
    assert_eq!(report.bad_lines.len(), 1);
    assert!(
        report.bad_lines[0].reasons().starts_with("268435456 bytes"),
        "{}",
        report.bad_lines[0].reasons()
    );
    // The reader's buffer and one line of at most MAX_LINE, with room for
    // the checker's tables: far below the input, whatever its size.
    let bound = 4 * c960_book::verify::MAX_LINE + (256 << 10);
    assert!(
        peak < bound,
        "checking 256 MiB without a line end held {peak} bytes at once (bound {bound})"
    );
}
