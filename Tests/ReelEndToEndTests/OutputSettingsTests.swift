/// The one merge of output settings (a later source wins field by field; the size settings replace each
/// other as a group), and messages that name settings without spelling them.
import Reel
import ReelMedia
import ReelScene
import Testing

@Suite struct OutputSettingsTests {
    @Test func laterSourceWinsFieldByField() {
        var preset = OutputSettings()
        preset.codec = .hevc
        preset.crf = 28
        preset.colors = 64
        preset.size = .init(width: 1080, height: 1080)
        var commandLine = OutputSettings()
        commandLine.crf = 18
        commandLine.scale = 2
        let merged = commandLine.merged(over: preset)
        #expect(merged.codec == .hevc)  // the preset's, not given again
        #expect(merged.crf == 18)  // given again: the later one
        #expect(merged.colors == 64)
        // --scale replaces the preset's size: one output size, said one way.
        #expect(merged.scale == 2 && merged.size == nil && merged.width == nil)
        // Nothing given over something: unchanged.
        #expect(OutputSettings().merged(over: preset) == preset)

        var options = RenderOptions()
        var overrides = SceneOverrides()
        merged.apply(to: &options, overrides: &overrides)
        #expect(options.codec == .hevc && options.crf == 18 && options.gif.colors == 64)
        #expect(overrides.scale == 2 && overrides.size == nil)
        #expect(merged.given == [.crf, .colors])
    }

    @Test func messagesSpellSettingsAsTheReaderNeeds() {
        let error = ReelError.usage(
            "needs about 900 MiB", fix: "raise \(Setting.memoryLimit) or render with \(Setting.workers, "1")")
        // The Swift API's (and presets') spelling: the property names.
        #expect(error.description == "needs about 900 MiB\n  fix: raise memoryLimit or render with workers: 1")
        // Another spelling, as the command line gives its own.
        let upper = SettingSpelling { setting, value in setting.rawValue.uppercased() + (value.map { "=" + $0 } ?? "") }
        #expect(error.message.text(upper) == "needs about 900 MiB\n  fix: raise MEMORYLIMIT or render with WORKERS=1")
    }
}
