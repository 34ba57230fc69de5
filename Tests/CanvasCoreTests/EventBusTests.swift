import CanvasCore
import Foundation
import Testing

@MainActor
@Suite("Event bus: subscriptions and delivery")
struct EventBusTests {
    /// What a pane that starts later is told: the last event of each name, oldest first, however
    /// far back, and no more names than `latestKept`.
    @Test func theLastEventOfEachNameIsKeptForPanesThatStartLater() throws {
        let bus = EventBus()
        bus.publish(DateSelected(date: "2026-11-24"))
        bus.publish(NoteAdded(text: "milk"))
        bus.publish(DateSelected(date: "2026-11-26"))
        for index in 0..<600 { bus.publish(Ping(n: index)) }  // past the log's 500
        #expect(bus.latest(matching: [EventPattern("calendar.*")!, EventPattern("notes.*")!]).map(\.summary) == ["milk", "2026-11-26"])
        for index in 0..<(EventBus.latestKept + 10) { bus.publish(Named(eventName: EventName(rawValue: "app\(index).thing.done")!)) }
        #expect(bus.latest(matching: [EventPattern("*")!]).count == EventBus.latestKept)
        #expect(bus.latest(matching: [EventPattern("calendar.*")!]).isEmpty)  // the oldest went first
    }

    @Test func exactSubscriptionGetsOnlyThatName() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.exact("calendar.date.selected"), recorder.listener("exact"))
        publishSamples(on: bus)
        #expect(recorder.seen == ["exact:2026-11-22"])
    }

    @Test func sourcePrefixGetsEverythingFromThatSource() throws {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(try #require(EventPattern("calendar.*")), recorder.listener("cal"))
        publishSamples(on: bus)
        #expect(recorder.seen == ["cal:2026-11-22", "cal:month 11"])
    }

    @Test func entityPrefixGetsOnlyThatEntity() throws {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(try #require(EventPattern("calendar.date.*")), recorder.listener("date"))
        publishSamples(on: bus)
        #expect(recorder.seen == ["date:2026-11-22"])
    }

    @Test func allGetsEverythingInPublishOrder() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all, recorder.listener("all"))
        publishSamples(on: bus)
        #expect(recorder.seen == ["all:2026-11-22", "all:month 11", "all:hello", "all:look-alike"])
    }

    @Test func listenersOfOneEventRunInSubscriptionOrder() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all, recorder.listener("a"))
        bus.subscribe(.exact(Ping.name), recorder.listener("b"))
        bus.subscribe(.all, recorder.listener("c"))
        bus.publish(Ping(n: 1))
        #expect(recorder.seen == ["a:ping 1", "b:ping 1", "c:ping 1"])
        #expect(bus.subscriberCount == 3)
    }

    @Test func eventsCarrySequenceSourceAndTime() throws {
        let bus = makeBus()
        var received: [CanvasEvent] = []
        bus.subscribe(.all) { received.append($0) }
        bus.publish(Ping(n: 1), from: 4)
        bus.publish(Ping(n: 2))
        try #require(received.count == 2)
        #expect(received.map(\.sequence) == [1, 2])
        #expect(received.map(\.source) == [4, nil])
        #expect(received.map(\.name) == [Ping.name, Ping.name])
        #expect(received.allSatisfy { $0.time == Date(timeIntervalSince1970: 0) })
        #expect(received[0].payload(as: Ping.self)?.n == 1)
        #expect(received[0].payload(as: DateSelected.self) == nil)
    }

    @Test func typedSubscriptionDeliversTypedPayloads() {
        let bus = makeBus()
        var dates: [String] = []
        var sources: [PaneID?] = []
        bus.subscribe(to: DateSelected.self) { payload, event in
            dates.append(payload.date)
            sources.append(event.source)
        }
        bus.publish(DateSelected(date: "2026-11-22"), from: 2)
        bus.publish(MonthShown(month: 12))
        bus.publish(LookAlike())
        bus.publish(DateSelected(date: "2026-12-01"))
        #expect(dates == ["2026-11-22", "2026-12-01"])
        #expect(sources == [2, nil])
    }

    @Test func cancelStopsDeliveryAndCancellingTwiceIsHarmless() {
        let bus = makeBus(), recorder = Recorder()
        let first = bus.subscribe(.all, recorder.listener("first"))
        bus.subscribe(.all, recorder.listener("second"))
        bus.publish(Ping(n: 1))
        first.cancel()
        #expect(bus.subscriberCount == 1)
        bus.publish(Ping(n: 2))
        first.cancel()
        #expect(bus.subscriberCount == 1)
        bus.publish(Ping(n: 3))
        #expect(recorder.seen == ["first:ping 1", "second:ping 1", "second:ping 2", "second:ping 3"])
    }

    @Test func unsubscribeStopsDelivery() {
        let bus = makeBus(), recorder = Recorder()
        let subscription = bus.subscribe(.all, recorder.listener("x"))
        bus.unsubscribe(subscription)
        bus.publish(Ping(n: 1))
        #expect(recorder.seen.isEmpty)
        #expect(bus.subscriberCount == 0)
    }

    @Test func aListenerCancelledDuringDeliveryMissesTheCurrentEvent() {
        let bus = makeBus(), recorder = Recorder()
        var later: Subscription?
        bus.subscribe(.all) { _ in later?.cancel() }
        later = bus.subscribe(.all, recorder.listener("later"))
        bus.publish(Ping(n: 1))
        #expect(recorder.seen.isEmpty)
        #expect(bus.subscriberCount == 1)
    }

    @Test func aListenerAddedDuringDeliveryStartsWithTheNextEvent() {
        let bus = makeBus(), recorder = Recorder()
        var added = false
        bus.subscribe(.all) { _ in
            guard !added else { return }
            added = true
            bus.subscribe(.all, recorder.listener("new"))
            bus.publish(Ping(n: 2))
        }
        bus.publish(Ping(n: 1))
        #expect(recorder.seen == ["new:ping 2"])
    }

    @Test func eventsPublishedByListenersAreDeliveredAfterTheCurrentOne() {
        // Given listener a publishes 2 and 3 when it sees 1, and c publishes 4 when it sees 2,
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all) { event in
            recorder.seen.append("a:\(event.summary)")
            if event.payload(as: Ping.self)?.n == 1 {
                bus.publish(Ping(n: 2))
                bus.publish(Ping(n: 3))
            }
        }
        bus.subscribe(.all, recorder.listener("b"))
        bus.subscribe(to: Ping.self) { ping, _ in
            recorder.seen.append("c:ping \(ping.n)")
            if ping.n == 2 { bus.publish(Ping(n: 4)) }
        }
        // when 1 is published, every listener sees each event before any sees the next.
        bus.publish(Ping(n: 1))
        #expect(recorder.seen == [
            "a:ping 1", "b:ping 1", "c:ping 1",
            "a:ping 2", "b:ping 2", "c:ping 2",
            "a:ping 3", "b:ping 3", "c:ping 3",
            "a:ping 4", "b:ping 4", "c:ping 4",
        ])
        #expect(bus.log.events.map(\.sequence) == [1, 2, 3, 4])
        #expect(bus.log.events.map(\.summary) == ["ping 1", "ping 2", "ping 3", "ping 4"])
    }

    @Test func aThrowingListenerDoesNotStopOthersAndIsReportedOnce() throws {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all, recorder.listener("before"))
        bus.subscribe(.exact(Ping.name)) { _ in throw Boom() }
        bus.subscribe(.all, recorder.listener("after"))
        var failures: [ListenerFailed] = []
        bus.subscribe(to: ListenerFailed.self) { failure, _ in failures.append(failure) }

        bus.publish(Ping(n: 1))

        #expect(recorder.seen == [
            "before:ping 1", "after:ping 1",
            "before:listener for test.ping.sent failed on test.ping.sent: boom",
            "after:listener for test.ping.sent failed on test.ping.sent: boom",
        ])
        let failure = try #require(failures.first)
        #expect(failures.count == 1)
        #expect(failure.event == Ping.name)
        #expect(failure.pattern == "test.ping.sent")
        #expect(failure.error == "boom")
        #expect(bus.log.events.map(\.name) == [Ping.name, ListenerFailed.name])
        #expect(bus.log.events.map(\.source) == [nil, nil])
    }

    @Test func eachFailingListenerIsReportedWithItsPattern() throws {
        let bus = makeBus()
        bus.subscribe(try #require(EventPattern("test.*"))) { _ in throw Boom() }
        bus.subscribe(.all) { event in
            if event.name == Ping.name { throw Boom() }
        }
        bus.publish(Ping(n: 1))
        let failures = bus.log.events.compactMap { $0.payload(as: ListenerFailed.self) }
        #expect(failures.map(\.pattern) == ["test.*", "*"])
        #expect(failures.map(\.event) == [Ping.name, Ping.name])
    }

    @Test func aThrowingFailureListenerDoesNotLoop() {
        let bus = makeBus()
        var failureCalls = 0, allCalls = 0
        bus.subscribe(.exact(Ping.name)) { _ in throw Boom() }
        bus.subscribe(to: ListenerFailed.self) { _, _ in
            failureCalls += 1
            throw Boom()
        }
        // A listener that fails on everything, failure reports included.
        bus.subscribe(.all) { _ in
            allCalls += 1
            throw Boom()
        }

        bus.publish(Ping(n: 1))

        // Ping fails two listeners: two reports, and the reports' own failures are not reported.
        #expect(bus.log.events.map(\.name) == [Ping.name, ListenerFailed.name, ListenerFailed.name])
        #expect(failureCalls == 2)
        #expect(allCalls == 3)
        // The bus still works afterwards.
        bus.publish(NoteAdded(text: "after"))
        #expect(bus.log.count == 5)
        #expect(allCalls == 5)
    }

    @Test func holdingDeliveryDelaysEventsUntilTheBodyReturns() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all, recorder.listener("l"))
        let result = bus.holdingDelivery { () -> Int in
            bus.publish(Ping(n: 1))
            bus.publish(Ping(n: 2))
            #expect(recorder.seen.isEmpty, "nothing is delivered while held")
            #expect(bus.log.count == 2, "but it is logged at once")
            bus.publish(Ping(n: 3))
            return 42
        }
        #expect(result == 42)
        #expect(recorder.seen == ["l:ping 1", "l:ping 2", "l:ping 3"])
        bus.publish(Ping(n: 4))
        #expect(recorder.seen.last == "l:ping 4")
    }

    @Test func holdingDeliveryDeliversEvenWhenTheBodyThrows() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.all, recorder.listener("l"))
        #expect(throws: Boom.self) {
            try bus.holdingDelivery {
                bus.publish(Ping(n: 1))
                throw Boom()
            }
        }
        #expect(recorder.seen == ["l:ping 1"])
        bus.publish(Ping(n: 2))
        #expect(recorder.seen == ["l:ping 1", "l:ping 2"])
    }

    @Test func holdingDeliveryInsideAListenerKeepsPublishOrder() {
        let bus = makeBus(), recorder = Recorder()
        bus.subscribe(.exact(Ping.name)) { event in
            guard event.payload(as: Ping.self)?.n == 1 else { return }
            bus.holdingDelivery {
                bus.publish(NoteAdded(text: "from listener"))
                #expect(recorder.seen.isEmpty, "ping 1 has not reached the later listener yet")
            }
        }
        bus.subscribe(.all, recorder.listener("all"))
        bus.holdingDelivery {
            bus.publish(Ping(n: 1))
            bus.publish(Ping(n: 2))
        }
        #expect(recorder.seen == ["all:ping 1", "all:ping 2", "all:from listener"])
    }
}
