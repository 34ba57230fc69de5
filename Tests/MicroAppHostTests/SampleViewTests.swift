@testable import MicroAppHost
import MicroAppProtocol
import Testing

@Suite("Sample apps: the first number of the output")
struct SampleViewTests {
    @Test func aNumberKeepsItsExponent() {
        #expect(SampleView.firstNumber(in: "load 1e308")! == (1e308, "load"))
        #expect(SampleView.firstNumber(in: "took 3.5e2 ms")! == (350, "took  ms"))
        #expect(SampleView.firstNumber(in: "42% used")! == (42, "used"))
        #expect(SampleView.firstNumber(in: "1e")! == (1, "e"), "an e without digits is text")
        #expect(SampleView.firstNumber(in: "nothing") == nil)
    }

    @Test func aNumberBeyondWhatCanBeDrawnIsSaidNotDrawn() {
        var gauge = SampleView(show: .gauge)
        #expect(gauge.update(output: "cpu 1e308\n", problem: nil) == .text("1e+308 is beyond ±1e300", role: "warning", wrap: true))
        var sparkline = SampleView(show: .sparkline)
        _ = sparkline.update(output: "-1e301", problem: nil)
        #expect(sparkline.update(output: "5", problem: nil) == .sparkline(label: "5", values: [5], min: nil, max: nil))
    }
}
