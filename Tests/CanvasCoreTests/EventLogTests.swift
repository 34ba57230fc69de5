import CanvasCore
import Foundation
import Testing

@MainActor
@Suite("Event log")
struct EventLogTests {
    @Test func keepsEverythingBelowCapacity() {
        let bus = makeBus(logCapacity: 5)
        for n in 1...3 { bus.publish(Ping(n: n)) }
        #expect(bus.log.capacity == 5)
        #expect(bus.log.count == 3)
        #expect(bus.log.events.map(\.summary) == ["ping 1", "ping 2", "ping 3"])
    }

    @Test(arguments: [1, 3, 4, 7])
    func isBoundedAndKeepsTheNewestInOrder(capacity: Int) {
        let bus = makeBus(logCapacity: capacity)
        for n in 1...10 { bus.publish(Ping(n: n)) }
        #expect(bus.log.count == capacity)
        let expected = Array((11 - capacity)...10)
        #expect(bus.log.events.map(\.sequence) == expected)
        #expect(bus.log.events.map(\.summary) == expected.map { "ping \($0)" })
    }

    @Test func sequenceNumbersKeepIncreasingPastTheCapacity() {
        let bus = makeBus(logCapacity: 3)
        var sequences: [Int] = []
        bus.subscribe(.all) { sequences.append($0.sequence) }
        for n in 1...8 {
            bus.publish(Ping(n: n))
            let logged = bus.log.events.map(\.sequence)
            #expect(logged == logged.sorted())
            #expect(logged.last == n)
        }
        #expect(sequences == Array(1...8))
        #expect(bus.log.events.allSatisfy { $0.time == Date(timeIntervalSince1970: 0) })
    }

    @Test func capacityIsAtLeastOne() {
        let bus = makeBus(logCapacity: 0)
        bus.publish(Ping(n: 1))
        bus.publish(Ping(n: 2))
        #expect(bus.log.capacity == 1)
        #expect(bus.log.events.map(\.summary) == ["ping 2"])
        #expect(EventLog(capacity: -3).capacity == 1)
        #expect(EventLog(capacity: 4).events.isEmpty)
    }

    @Test func logsFailureReportsToo() {
        let bus = makeBus(logCapacity: 10)
        bus.subscribe(.all) { event in
            if event.name == Ping.name { throw Boom() }
        }
        bus.publish(Ping(n: 1))
        bus.publish(Ping(n: 2))
        #expect(bus.log.events.map(\.summary) == [
            "ping 1", "listener for * failed on test.ping.sent: boom",
            "ping 2", "listener for * failed on test.ping.sent: boom",
        ])
        #expect(bus.log.events.map(\.sequence) == [1, 2, 3, 4])
    }

    @Test func canvasEventSummaries() {
        #expect(LayoutChanged(step: "move #2 down").summary == "move #2 down")
        #expect(PaneFocused(pane: 3, title: "3 Calendar").summary == "3 Calendar")
        #expect(LayoutChanged.name.rawValue == "canvas.layout.changed")
        #expect(PaneFocused.name.rawValue == "canvas.pane.focused")
        #expect(!LayoutChanged.supersedesPrevious)
    }
}
