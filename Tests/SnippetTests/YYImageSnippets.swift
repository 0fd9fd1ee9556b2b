// swift-format-ignore-file
// (each snippet is the README's or the DocC catalog's code block, character for character)
import Foundation
import YYImage

// The README's YYImage examples, compiled. Never called.

/// Puts a frame on the screen (here: nowhere).
func show(_ bitmap: Bitmap, part: UnitRect?) {}

func imageSnippet(data: Data, received: Data) throws {
    // snippet.begin image
    // Decode: any supported type, still or animated; frames come composited at canvas size.
    let decoder = try ImageDecoder(data: data)
    print(decoder.type!, decoder.canvasWidth, decoder.canvasHeight, decoder.frameCount, decoder.loopCount)
    for index in 0..<decoder.frameCount {
        let canvas: Bitmap = try decoder.frame(at: index)      // RGBA8, straight alpha by default
        let info = try decoder.frameInfo(at: index)             // x, y, size, duration, disposal, blend
        print(canvas.width, canvas.height, info.duration)
    }

    // Incremental: pass all bytes so far; before `final` only frame 0, decoded from what arrived.
    let progressive = ImageDecoder()
    try progressive.update(data: received, final: false)
    let preview = try progressive.frame(at: 0)

    // Options: decompression-bomb limits, downsampling (JPEG through DCT scaling), premultiplied
    // output; the EXIF orientation is applied unless told otherwise.
    var options = ImageDecoder.Options()
    options.maxPixelCount = 50_000_000
    options.maxPixelSize = 512
    options.alphaMode = .premultiplied
    options.appliesOrientation = false   // keep the stored pixels

    // Encode: stills and animations.
    var encoder = ImageEncoder(type: .webp)   // .png (APNG when animated), .gif, .jpeg, .webp, .bmp, .ico
    encoder.quality = 0.8; encoder.lossless = false; encoder.loopCount = 0
    encoder.addFrame(try decoder.frame(at: 0), duration: 0.1)
    let webp = try encoder.encode()
    let gif = try ImageEncoder.reencode(decoder, as: .gif)

    // Images: frame 0 decoded at once, the rest on demand; `@2x` scale from the file name.
    let image = try Image(contentsOfFile: "cube@2x.png")
    let shown = image.duration(at: 3)         // the 100 ms rule applied
    // snippet.end
    _ = (preview, options, webp, gif, shown)
}

func playerSnippet() async throws {
    // snippet.begin player
    let image = try Image(contentsOfFile: "cube@2x.png")          // or FrameImage, SpriteSheetImage
    let player = AnimatedImagePlayer(image: image)                // ContinuousClock; or (image:clock:) with any Clock
    player.rate = 1.5                                             // keeps the current position
    player.loopCountOverride = 3                                  // nil: the file's count; 0 = forever
    let events = player.events()                                  // AsyncStream: .frame(FrameChange), .finished
    player.addObserver { event in /* on the player's timer thread */ }
    player.play()
    for await event in events {
        guard case .frame(let change) = event else { break }      // .finished: stays on the last frame
        show(change.contents.bitmap, part: change.contents.contentsRect)   // sprite sheets: the sheet + its rectangle
    }
    player.pause(); player.play()                                 // continues mid-frame, no jump
    player.currentFrameIndex = 10                                 // shows frame 10 now
    player.stop()                                                 // rewinds, gives up its share of the buffer
    print(player.statistics)                                      // shown, skipped, late, decodes, hits, misses, bytes, peak
    // snippet.end
}

func processingSnippet(image: Image, photo: Bitmap) throws {
    // snippet.begin processing
    // A chain of steps as a value: its identifier keys caches, apply() runs every frame.
    let chain = ProcessingChain()
        .resized(Resize(width: 400, height: 300, fit: .cover, gravity: .attention))   // sharp's fit names and sizes
        .sharpened(sigma: 0.5)
    let thumbnail = try chain.apply(to: image)                  // animations keep frames, durations, loop count
    print(chain.identifier)                                     // "resize(w=400,h=300,fit=cover,g=attention,…)|sharpen(0.5)"

    // The steps one at a time, on bitmaps.
    var options = ResizeOptions(kernel: .lanczos3)             // lanczos2, mitchell, catmullRom, linear, box, nearest
    options.reducingGap = 2                                     // box pre-shrink to ~2x the target first (nil: off)
    options.linearLight = false                                 // true: filter in linear light (slower)
    let small = try ProcessingChain().resized(Resize(width: 1000, options: options)).apply(to: photo)
    let upright = small.rotated(.clockwise90).flopped()        // .flipped(): top to bottom
    let soft = try upright.blurred(sigma: 2).grayscaled()
    let badge = try soft.roundingCorners(radius: 12).flattened(onto: RGBA(255, 255, 255))
    print(thumbnail.pixelWidth, badge.width)
    // snippet.end
}
