#if OpenJPEG
internal import COpenJPEG

/// Writes a bitmap as a JP2 file with OpenJPEG: RGB (or RGBA with a channel-definition box
/// marking alpha), the reversible 5/3 wavelet for lossless files and the irreversible 9/7 one
/// aimed at a PSNR for lossy ones.
enum JPEG2000Writer {
    /// The PSNR (dB) a lossy encode aims at for `quality` 0...1: 25 dB (blocky) to 45 dB
    /// (close to the original), about what JPEG gives at the same setting.
    static func targetPSNR(quality: Double) -> Float {
        Float(25 + 20 * min(1, max(0, quality)))
    }

    /// The JP2 file of `bitmap`.
    static func write(_ bitmap: Bitmap, quality: Double, lossless: Bool, withAlpha: Bool) throws(ImageError) -> [UInt8] {
        let components = withAlpha ? 4 : 3
        var parameters = [opj_image_cmptparm_t](repeating: opj_image_cmptparm_t(), count: components)
        for index in parameters.indices {
            parameters[index].dx = 1
            parameters[index].dy = 1
            parameters[index].w = OPJ_UINT32(bitmap.width)
            parameters[index].h = OPJ_UINT32(bitmap.height)
            parameters[index].prec = 8
            parameters[index].sgnd = 0
        }
        guard let image = opj_image_create(OPJ_UINT32(components), &parameters, OPJ_CLRSPC_SRGB) else {
            throw .codec(.jpeg2000, "OpenJPEG could not allocate the image")
        }
        defer { opj_image_destroy(image) }
        image.pointee.x1 = OPJ_UINT32(bitmap.width)
        image.pointee.y1 = OPJ_UINT32(bitmap.height)
        let planes = UnsafeMutableBufferPointer(start: image.pointee.comps, count: components)
        if withAlpha { planes[3].alpha = 1 }
        bitmap.pixels.withUnsafeBufferPointer { source in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                for x in 0..<bitmap.width {
                    for channel in 0..<components {
                        planes[channel].data[y * bitmap.width + x] = OPJ_INT32(source[row + x * 4 + channel])
                    }
                }
            }
        }

        var settings = opj_cparameters_t()
        opj_set_default_encoder_parameters(&settings)
        settings.tcp_numlayers = 1
        settings.tcp_mct = 1  // the colour transform (RCT or ICT) over R, G, B
        // Every resolution level must be at least one pixel: at most log2(shorter side) + 1 levels.
        let shorter = min(bitmap.width, bitmap.height)
        settings.numresolution = Int32(min(6, Int.bitWidth - shorter.leadingZeroBitCount))
        if lossless {
            settings.irreversible = 0
            settings.cp_disto_alloc = 1
            settings.tcp_rates.0 = 0
        } else {
            settings.irreversible = 1
            settings.cp_fixed_quality = 1
            settings.tcp_distoratio.0 = targetPSNR(quality: quality)
        }
        let codec = try OpenJPEG(.jp2, decoding: nil)
        guard opj_setup_encoder(codec.codec, &settings, image) != 0 else { throw .codec(.jpeg2000, codec.error("encoder setup failed")) }
        guard opj_start_compress(codec.codec, image, codec.stream) != 0,
            opj_encode(codec.codec, codec.stream) != 0,
            opj_end_compress(codec.codec, codec.stream) != 0
        else { throw .codec(.jpeg2000, codec.error("encoding failed")) }
        return codec.memory.bytes
    }
}
#endif
