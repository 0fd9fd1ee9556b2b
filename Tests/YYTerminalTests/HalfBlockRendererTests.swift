import Testing
import YYImage

@testable import YYTerminal

@Suite struct HalfBlockRendererTests {
    /// Two columns, three pixel rows: red over blue | transparent over green; then a half-grey
    /// pixel over nothing (an odd last row) | white over nothing.
    static let image: Bitmap = {
        var bitmap = Bitmap(width: 2, height: 3)
        bitmap[0, 0] = RGBA(255, 0, 0, 255)
        bitmap[0, 1] = RGBA(0, 0, 255, 255)
        bitmap[1, 0] = RGBA(9, 9, 9, 0)
        bitmap[1, 1] = RGBA(0, 255, 0, 255)
        bitmap[0, 2] = RGBA(200, 100, 50, 128)
        bitmap[1, 2] = RGBA(255, 255, 255, 255)
        return bitmap
    }()

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func trueColorLinesUseUpperHalfBlocksWith24BitColours() {
        let renderer = HalfBlockRenderer(colorMode: .trueColor, background: RGB(0, 0, 0))
        let expected =
            "\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀" + "\u{1B}[0;38;2;0;255;0;49m▄" + "\u{1B}[0m\n"
            // 200,100,50 at alpha 128 over black: 100,50,25.
            + "\u{1B}[0;38;2;100;50;25;49m▀" + "\u{1B}[0;38;2;255;255;255;49m▀" + "\u{1B}[0m\n"
        #expect(Self.text(renderer.lines(for: Self.image)) == expected)
    }

    @Test func twoHundredFiftySixColourLinesUseTheXtermPalette() {
        let renderer = HalfBlockRenderer(colorMode: .palette256)
        let expected =
            "\u{1B}[0;38;5;196;48;5;21m▀" + "\u{1B}[0;38;5;46;49m▄" + "\u{1B}[0m\n"
            // 100,50,25 (blended) is nearest to cube colour 58 (95,95,0).
            + "\u{1B}[0;38;5;58;49m▀" + "\u{1B}[0;38;5;231;49m▀" + "\u{1B}[0m\n"
        #expect(Self.text(renderer.lines(for: Self.image)) == expected)
    }

    @Test func aCellLikeTheOneBeforeRepeatsNoColours() {
        let renderer = HalfBlockRenderer(colorMode: .trueColor)
        let red = Bitmap(
            width: 3, height: 2, pixels: [UInt8](repeating: 0, count: 24).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 })!
        #expect(Self.text(renderer.lines(for: red)) == "\u{1B}[0;38;2;255;0;0;48;2;255;0;0m▀▀▀\u{1B}[0m\n")
    }

    @Test func theFirstDrawIsWholeInSynchronizedOutputFromTheSavedCursor() {
        var renderer = HalfBlockRenderer(colorMode: .trueColor)
        let drawn = Self.text(renderer.draw(Self.image, columns: 2, rows: 2))
        let expected =
            "\u{1B}[?2026h"
            + "\u{1B}8" + "\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀" + "\u{1B}[0;38;2;0;255;0;49m▄" + "\u{1B}[0m"
            + "\u{1B}8\u{1B}[1B" + "\u{1B}[0;38;2;100;50;25;49m▀" + "\u{1B}[0;38;2;255;255;255;49m▀" + "\u{1B}[0m"
            + "\u{1B}[?2026l"
        #expect(drawn == expected)
    }

    @Test func laterDrawsRedrawOnlyTheCellsThatChanged() {
        var renderer = HalfBlockRenderer(colorMode: .trueColor)
        _ = renderer.draw(Self.image, columns: 2, rows: 2)
        var next = Self.image
        next[1, 2] = RGBA(0, 0, 0, 255)  // bottom-right cell only
        #expect(
            Self.text(renderer.draw(next, columns: 2, rows: 2))
                == "\u{1B}[?2026h" + "\u{1B}8\u{1B}[1B\u{1B}[1C" + "\u{1B}[0;38;2;0;0;0;49m▀" + "\u{1B}[0m" + "\u{1B}[?2026l")
        // Nothing changed: an empty update.
        #expect(Self.text(renderer.draw(next, columns: 2, rows: 2)) == "\u{1B}[?2026h\u{1B}[?2026l")
        // After a reset everything is drawn again.
        renderer.reset()
        #expect(Self.text(renderer.draw(next, columns: 2, rows: 2)).contains("\u{1B}8\u{1B}[0;38;2;255;0;0"))
    }

    @Test func xtermPaletteMapsToTheNearestCubeColourOrGrey() {
        #expect(XtermPalette.index(of: RGB(255, 0, 0)) == 196)
        #expect(XtermPalette.index(of: RGB(0, 0, 0)) == 16)
        #expect(XtermPalette.index(of: RGB(255, 255, 255)) == 231)
        #expect(XtermPalette.index(of: RGB(128, 128, 128)) == 244)  // grey 128 beats cube 135
        #expect(XtermPalette.color(of: 244) == RGB(128, 128, 128))
        for (outside, nearest) in [(0, 16), (-1, 16), (Int.min, 16), (256, 255), (Int.max, 255)] {
            #expect(XtermPalette.color(of: outside) == XtermPalette.color(of: nearest), "entry \(outside)")
        }
        // Every entry maps back to itself or to a colour just as near.
        for index in 16...255 {
            let color = XtermPalette.color(of: index)
            #expect(XtermPalette.color(of: XtermPalette.index(of: color)) == color, "entry \(index)")
        }
    }

    @Test func colourModeComesFromCOLORTERM() {
        #expect(TerminalColorMode.detect(environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(TerminalColorMode.detect(environment: ["COLORTERM": "24bit"]) == .trueColor)
        #expect(TerminalColorMode.detect(environment: [:]) == .palette256)
    }
}
