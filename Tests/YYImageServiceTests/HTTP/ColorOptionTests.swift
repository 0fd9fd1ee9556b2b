import Foundation
import Testing
import YYImage

@testable import YYImageService

/// imgproxy Pro's colour options (`adjust`, `brightness`, `contrast`, `saturation`,
/// `monochrome`, `duotone`, `colorize`, `gradient`, `background_alpha`) and
/// `resizing_algorithm`, free here, on the quadrants and block pictures.
extension ProcessingOptionTests {
    @Test func brightnessContrastAndSaturationFollowTheirFormulas() async throws {
        try await withService { service in
            let brighter = try await render(service, "br:40/f:png", "quadrants.png")
            #expect(near(brighter[2, 2], RGBA(255, 40, 40)) && near(brighter[2, 29], RGBA(40, 40, 255)))
            // Contrast 0 is flat mid-grey; saturation 0 the ITU-R 601 grey (red: 76).
            let flat = try await render(service, "co:0/f:png", "quadrants.png")
            #expect(near(flat[2, 2], RGBA(128, 128, 128), tolerance: 0) && near(flat[61, 29], RGBA(128, 128, 128), tolerance: 0))
            let grey = try await render(service, "sa:0/f:png", "quadrants.png")
            #expect(near(grey[2, 2], RGBA(76, 76, 76), tolerance: 0))
            // `adjust` is the three at once.
            let adjusted = try await render(service, "a:10::0/f:png", "quadrants.png")
            let oneByOne = try await render(service, "br:10/sa:0/f:png", "quadrants.png")
            #expect(adjusted == oneByOne)
        }
    }

    @Test func monochromeAndDuotoneMapLumaToTheirColours() async throws {
        try await withService { service in
            // The default colour (b3b3b3) gives plain Rec. 709 greyscale: green is 182.
            let mono = try await render(service, "mc:1/f:png", "quadrants.png")
            #expect(near(mono[61, 2], RGBA(182, 182, 182), tolerance: 1))
            // White becomes the light colour; everything darkened to black, the dark one.
            let light = try await render(service, "dt:1:ff0000:0000ff/f:png", "block.png")
            #expect(near(light[30, 15], RGBA(0, 0, 255)))
            let dark = try await render(service, "br:-255/dt:1:ff0000:0000ff/f:png", "block.png")
            #expect(near(dark[30, 15], RGBA(255, 0, 0)) && near(dark[8, 6], RGBA(255, 0, 0)))
            // Intensity 0 is off.
            let off = try await render(service, "dt:0:ff0000:0000ff/f:png", "block.png")
            #expect(near(off[30, 15], Self.white))
        }
    }

    @Test func colorizeAndGradientLayColourOverTheResult() async throws {
        try await withService { service in
            let tinted = try await render(service, "col:0.4:0000ff/f:png", "quadrants.png")
            #expect(near(tinted[2, 2], RGBA(153, 0, 102), tolerance: 1))
            // Down: transparent at the top, black at the bottom.
            let faded = try await render(service, "gr:1:000:down/f:png", "block.png")
            #expect(near(faded[30, 0], Self.white, tolerance: 8) && near(faded[30, 19], RGBA(0, 0, 0), tolerance: 8))
            let left = try await render(service, "gr:1:000:90/f:png", "block.png")
            #expect(near(left[39, 15], Self.white, tolerance: 4) && near(left[0, 15], RGBA(0, 0, 0), tolerance: 4))
            // The padding is part of the result the overlay covers.
            let padded = try await render(service, "pd:4/bg:ffffff/col:1:00ff00/f:png", "block.png")
            #expect(near(padded[0, 0], Self.green))
        }
    }

    @Test func backgroundAlphaMakesThePaddingTranslucent() async throws {
        try await withService { service in
            let padded = try await render(service, "pd:2/bg:ff0000/bga:0.5/f:png", "quadrants.png")
            #expect(near(padded[0, 0], RGBA(255, 0, 0, 128), tolerance: 1))
            #expect(near(padded[4, 4], Self.red))
            // Without alpha in the format, the translucent background shows over white.
            let jpeg = try await render(service, "pd:16/bg:ff0000/bga:0.5/q:100/f:jpg", "quadrants.png")
            #expect(near(jpeg[2, 40], RGBA(255, 127, 127), tolerance: 6))
        }
    }

    @Test func resizingAlgorithmChoosesTheKernel() async throws {
        try await withService { service in
            // Next to the red/green boundary, nearest keeps pure red where Lanczos-3 blends in green.
            let nearest = try await render(service, "rs:fit:16:8/ra:nearest/f:png", "quadrants.png")
            #expect(nearest[7, 1] == Self.red)
            let lanczos = try await render(service, "rs:fit:16:8/f:png", "quadrants.png")
            #expect(lanczos[7, 1] != Self.red)
            let cubic = try await render(service, "rs:fit:16:8/ra:cubic/f:png", "quadrants.png")
            #expect(cubic.width == 16 && cubic != lanczos)
        }
    }

    @Test(arguments: [
        "br:256", "br:1.5", "co:-1", "sa:x", "a:1:2:3:4", "mc:2", "mc:1:zz", "dt:1:000:fffffg", "col:1.1", "col:1:000:maybe",
        "gr:1:000:sideways", "gr:1:000:down:2", "ra:bicubic", "bga:1.5",
    ])
    func aColourOptionOutOfRangeIsRefused(option: String) async throws {
        try await withService { service in
            let reply = try await service.get("/insecure/\(option)/plain/local:///quadrants.png")
            #expect(reply.status == 400, "\(option): \(reply.status)")
        }
    }
}
