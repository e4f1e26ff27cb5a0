import EPFReport
import Testing

/// The status line on a terminal is cut to the terminal's width (a line
/// that wrapped could not be replaced in place), by display width.
@Suite("Status line width")
struct StatusLineTests {
    @Test func aLongLineIsCutToTheTerminalWidth() {
        let line = "application: 1,234,567 rows, 45.2 MB/s read, 37%, ETA 2m · file 3 of 11, 1.2 GB of 4.5 GB (27%), ETA 12m"
        let cut = DisplayWidth.fitted(line, columns: 80)
        #expect(DisplayWidth.of(cut) == 79 && cut.hasSuffix("…") && line.hasPrefix(cut.dropLast()))
        #expect(DisplayWidth.fitted(line, columns: nil) == line)
        #expect(DisplayWidth.fitted("short", columns: 80) == "short")
        // Wide characters take two columns each.
        let wide = DisplayWidth.fitted(String(repeating: "国", count: 50), columns: 40)
        #expect(DisplayWidth.of(wide) <= 39 && wide.hasSuffix("…"))
    }
}
