import CanvasCore
import Testing

@Suite("Geometry: Point, Size, Rect, Direction")
struct GeometryTests {
    @Test func pointMovesByDirectionAndDistance() {
        let p = Point(x: 2, y: 3)
        #expect(p.moved(.left) == Point(x: 1, y: 3))
        #expect(p.moved(.right, by: 4) == Point(x: 6, y: 3))
        #expect(p.moved(.up, by: 5) == Point(x: 2, y: -2))
        #expect(p.moved(.down) == Point(x: 2, y: 4))
        #expect(p.description == "(2,3)")
    }

    @Test func directionUnitsAndAxes() {
        #expect(Direction.left.unit == Point(x: -1, y: 0))
        #expect(Direction.right.unit == Point(x: 1, y: 0))
        #expect(Direction.up.unit == Point(x: 0, y: -1))
        #expect(Direction.down.unit == Point(x: 0, y: 1))
        #expect(Direction.allCases.filter(\.isHorizontal) == [.left, .right])
    }

    @Test func sizeAreaAndContainment() {
        #expect(Size(width: 3, height: 4).area == 12)
        #expect(Size(width: -3, height: 4).area == 0)
        #expect(Size(width: 0, height: 4).isEmpty)
        #expect(!Size(width: 1, height: 1).isEmpty)
        #expect(Size(width: 3, height: 4).contains(Size(width: 3, height: 2)))
        #expect(!Size(width: 3, height: 4).contains(Size(width: 4, height: 2)))
        #expect(Size(width: 120, height: 40).description == "120×40")
    }

    @Test(arguments: [
        ("120x40", Size(width: 120, height: 40)),
        ("120X40", Size(width: 120, height: 40)),
        ("1x1", Size(width: 1, height: 1)),
    ])
    func sizeParsesColumnsByRows(text: String, expected: Size) {
        #expect(Size(parsing: text) == expected)
    }

    @Test(arguments: ["0x5", "5x0", "abc", "12x", "x12", "", "x", "12x5x3", "-3x5", "12 x 5", "12×5", "1.5x4"])
    func sizeRejectsMalformedText(text: String) {
        #expect(Size(parsing: text) == nil)
    }

    @Test func rectEdgesAreHalfOpen() {
        let r = rect(2, 3, 4, 5)
        #expect((r.minX, r.maxX, r.minY, r.maxY) == (2, 6, 3, 8))
        #expect(r.area == 20)
        #expect(r.contains(Point(x: 2, y: 3)))
        #expect(r.contains(Point(x: 5, y: 7)))
        #expect(!r.contains(Point(x: 6, y: 7)))
        #expect(!r.contains(Point(x: 5, y: 8)))
        #expect(!r.contains(Point(x: 1, y: 3)))
        #expect(r.description == "2,3 4×5")
    }

    @Test func rectContainsRect() {
        let outer = rect(0, 0, 12, 12)
        #expect(outer.contains(outer))
        #expect(outer.contains(rect(6, 6, 6, 6)))
        #expect(!outer.contains(rect(7, 6, 6, 6)))
        #expect(!outer.contains(rect(-1, 0, 2, 2)))
    }

    @Test func rectIntersection() {
        let a = rect(0, 0, 6, 6)
        #expect(a.intersection(rect(4, 3, 6, 6)) == rect(4, 3, 2, 3))
        #expect(a.intersects(rect(4, 3, 6, 6)))
        // Rectangles that only share an edge do not intersect.
        #expect(!a.intersects(rect(6, 0, 6, 6)))
        #expect(!a.intersects(rect(0, 6, 6, 6)))
        #expect(a.intersection(rect(6, 0, 6, 6)).isEmpty)
        #expect(a.intersection(rect(20, 20, 2, 2)).area == 0)
        // Containment is an intersection equal to the smaller rectangle.
        #expect(a.intersection(rect(1, 1, 2, 2)) == rect(1, 1, 2, 2))
    }

    @Test func rectInsetOffsetMoveResize() {
        let r = rect(2, 3, 10, 6)
        #expect(r.inset(by: 1) == rect(3, 4, 8, 4))
        #expect(r.inset(by: 4) == rect(6, 7, 2, 0))
        #expect(r.offsetBy(Point(x: -2, y: 5)) == rect(0, 8, 10, 6))
        #expect(r.moved(to: Point(x: 7, y: 1)) == rect(7, 1, 10, 6))
        #expect(r.resized(to: Size(width: 3, height: 2)) == rect(2, 3, 3, 2))
    }
}
