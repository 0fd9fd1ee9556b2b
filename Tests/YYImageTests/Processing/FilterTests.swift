import Testing

@testable import YYImage

@Suite struct FilterTests {
    @Test func blurKeepsAFlatImageFlatAndSpreadsAnEdge() throws {
        let flat = Bitmap(filledWith: RGBA(10, 200, 30), width: 40, height: 30, alphaMode: .straight)
        #expect(try flat.blurred(sigma: 3) == flat)
        var edge = Bitmap(filledWith: RGBA(0, 0, 0), width: 40, height: 1, alphaMode: .straight)
        for x in 20..<40 { edge[x, 0] = RGBA(255, 255, 255) }
        let blurred = try edge.blurred(sigma: 2)
        #expect(blurred[19, 0].r > 60 && blurred[19, 0].r < 128 && blurred[20, 0].r > 128 && blurred[20, 0].r < 200)
        #expect(blurred[0, 0].r == 0 && blurred[39, 0].r == 255)
    }

    @Test func blurringAnOpaquePictureKeepsItOpaqueInItsOwnAlphaMode() throws {
        let picture = ProcessingFixtures.texture(width: 80, height: 60)
        for mode in [Bitmap.AlphaMode.straight, .premultiplied] {
            let blurred = try picture.converted(to: mode).blurred(sigma: 4)
            #expect(blurred.alphaMode == mode && blurred.isOpaque)
        }
        // The same pixels as the translucent path gives once every alpha is 255.
        var almost = picture
        almost[0, 0] = RGBA(almost[0, 0].r, almost[0, 0].g, almost[0, 0].b, 254)
        let reference = try almost.blurred(sigma: 4), fast = try picture.blurred(sigma: 4)
        #expect(
            maxChannelDifference(
                fast.cropped(to: PixelRect(x: 40, y: 30, width: 40, height: 30)),
                reference.cropped(to: PixelRect(x: 40, y: 30, width: 40, height: 30))) <= 1)
    }

    @Test func sharpenSteepensAnEdgeAndLeavesFlatAreas() throws {
        var ramp = Bitmap(width: 40, height: 4)
        for y in 0..<4 { for x in 0..<40 { ramp[x, y] = x < 20 ? RGBA(100, 100, 100) : RGBA(150, 150, 150) } }
        let sharp = try ramp.sharpened(sigma: 1.5)
        #expect(sharp[19, 1].r < 100 && sharp[20, 1].r > 150)
        #expect(sharp[2, 1] == RGBA(100, 100, 100) && sharp[37, 1] == RGBA(150, 150, 150))
    }

    @Test func grayscaleUsesRec709LumaAndKeepsAlpha() {
        var image = Bitmap(width: 3, height: 1)
        image[0, 0] = RGBA(255, 0, 0, 200)
        image[1, 0] = RGBA(0, 255, 0)
        image[2, 0] = RGBA(0, 0, 255)
        let grey = image.grayscaled()
        #expect(grey[0, 0] == RGBA(54, 54, 54, 200))
        #expect(grey[1, 0] == RGBA(182, 182, 182))
        #expect(grey[2, 0] == RGBA(18, 18, 18))
    }

    @Test func flattenCompositesOverTheBackground() {
        var image = Bitmap(width: 2, height: 1)
        image[0, 0] = RGBA(255, 0, 0, 128)
        image[1, 0] = RGBA(9, 9, 9, 0)
        let flat = image.flattened(onto: RGBA(255, 255, 255))
        #expect(flat[0, 0] == RGBA(255, 127, 127) && flat[1, 0] == RGBA(255, 255, 255))
        #expect(flat.isOpaque)
    }

    @Test func roundedCornersAndCirclesClearTheCornersOnly() throws {
        let square = Bitmap(filledWith: RGBA(1, 2, 3), width: 40, height: 30, alphaMode: .straight)
        let rounded = try square.roundingCorners(radius: 8)
        #expect(rounded[0, 0].a == 0 && rounded[39, 29].a == 0 && rounded[39, 0].a == 0 && rounded[0, 29].a == 0)
        #expect(rounded[20, 0].a == 255 && rounded[0, 15].a == 255 && rounded[8, 8].a == 255)
        let circle = try square.circleMasked()
        #expect((circle.width, circle.height) == (30, 30))
        #expect(circle[0, 0].a == 0 && circle[15, 15].a == 255 && circle[15, 0].a > 0 && circle[2, 2].a == 0)
    }

    @Test func pixelateFillsEachBlockWithItsMeanAndClipsTheEdgeBlocks() throws {
        var image = Bitmap(width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 { image[x, y] = RGBA(UInt8(x * 50), UInt8(y * 100), 7) } }
        let blocks = try image.pixelated(blockSize: 2)
        // Block (0,0): x 0-1, y 0-1; red (0+50+0+50)/4 = 25, green (0+0+100+100)/4 = 50.
        #expect(blocks[0, 0] == RGBA(25, 50, 7) && blocks[1, 1] == RGBA(25, 50, 7))
        // The right edge block is one column wide (x 4), the bottom one a row high (y 2).
        #expect(blocks[4, 0] == RGBA(200, 50, 7) && blocks[4, 2] == RGBA(200, 200, 7) && blocks[2, 2] == RGBA(125, 200, 7))
        #expect(try image.pixelated(blockSize: 1) == image)
        #expect(throws: ImageError.self) { try image.pixelated(blockSize: 0) }
    }

    @Test func pixelateAveragesTranslucentPixelsByTheirAlpha() throws {
        var image = Bitmap(width: 2, height: 1)
        image[0, 0] = RGBA(255, 0, 0, 255)
        // Fully transparent: its green must not tint the block.
        image[1, 0] = RGBA(0, 255, 0, 0)
        let block = try image.pixelated(blockSize: 2)
        #expect(block.alphaMode == .straight)
        #expect(block[0, 0] == block[1, 0] && block[0, 0].a == 128 && block[0, 0].g == 0 && block[0, 0].r >= 254)
    }
}
