import CanvasCore
import Foundation
import Testing

@MainActor
struct EventCascadeTests {
    static func event(_ n: Int) -> CanvasEvent {
        CanvasEvent(sequence: n, source: nil, time: Date(timeIntervalSince1970: 0), payload: Ping(n: n))
    }

    @Test func eventsComeOutInOrderThoseRaisedMeanwhileAfterAndTheCascadeIsReusable() {
        var cascade = EventCascade()
        cascade.append(Self.event(1))
        cascade.append(Self.event(2))
        var seen: [Int] = []
        while let step = cascade.next() {
            guard case .deliver(let event) = step else { Issue.record("an overflow of two events"); break }
            seen.append(event.sequence)
            if event.sequence == 1 { cascade.append(Self.event(3)) }
        }
        #expect(seen == [1, 2, 3])
        cascade.append(Self.event(4))
        #expect(cascade.next().flatMap { if case .deliver(let event) = $0 { event.sequence } else { nil } } == 4)
        #expect(cascade.next() == nil)
    }

    @Test func aListenerThatPublishesOnEveryEventStopsAtTheLimitAndTheOverflowIsLogged() {
        let bus = makeBus(logCapacity: 100)
        var heard = 0
        bus.subscribe(to: Ping.self) { ping, _ in
            heard += 1
            bus.publish(Ping(n: ping.n + 1))
        }
        bus.publish(Ping(n: 0))
        #expect(heard == EventCascade.limit)
        let overflow = bus.log.events.last?.payload(as: ListenerFailed.self)
        #expect(overflow == ListenerFailed.overflow(dropped: 1))
    }
}
