import CanvasCore
import Testing

@Suite("Grid mapping: grid units onto terminal cells")
struct GridMappingTests {
    /// Terminal areas of awkward sizes, some not at the origin.
    static let areas: [Rect] = [
        rect(0, 0, 80, 23),
        rect(0, 0, 121, 37),
        rect(0, 0, 7, 5),
        rect(3, 1, 121, 37),
        rect(10, 4, 7, 5),
        rect(0, 0, 1, 1),
    ]

    /// Tilings of the standard 12×12 grid: every unit cell, the three-pane fixture, and an
    /// irregular arrangement.
    static let tilings: [[Rect]] = [
        (0..<12).flatMap { y in (0..<12).map { x in rect(x, y, 1, 1) } },
        Fixture.threePanes.map(\.frame),
        [rect(0, 0, 5, 3), rect(5, 0, 7, 3), rect(0, 3, 3, 9), rect(3, 3, 9, 4), rect(3, 7, 4, 5), rect(7, 7, 5, 5)],
    ]

    let grid = GridSpec.standard

    @Test func knownValuesOn80x23() {
        let area = rect(0, 0, 80, 23)
        #expect(grid.cellRect(for: rect(0, 0, 6, 12), in: area) == rect(0, 0, 40, 23))
        #expect(grid.cellRect(for: rect(6, 0, 6, 12), in: area) == rect(40, 0, 40, 23))
        // Column lines at 20 and 53 (8 × 80 / 12 = 53.3), row lines at 7 and 11 (6 × 23 / 12 = 11.5).
        #expect(grid.cellRect(for: rect(3, 4, 5, 2), in: area) == rect(20, 7, 33, 4))
        #expect(grid.cellRect(for: rect(11, 11, 1, 1), in: area) == rect(73, 21, 7, 2))
    }

    @Test func areaOriginIsRespected() {
        let area = rect(5, 2, 121, 37)
        #expect(grid.cellRect(for: grid.bounds, in: area) == area)
        // 121 / 12 = 10.08 → line 1 at 5 + 10, line 2 at 5 + 20; 37 / 12 → lines at 2 + 3 and 2 + 6.
        #expect(grid.cellRect(for: rect(1, 1, 1, 1), in: area) == rect(15, 5, 10, 3))
        #expect(grid.cellRect(for: rect(0, 0, 1, 1), in: area) == rect(5, 2, 10, 3))
        // The same grid rectangle in a shifted area is the same cells shifted.
        let atOrigin = grid.cellRect(for: rect(3, 4, 5, 2), in: rect(0, 0, 121, 37))
        #expect(grid.cellRect(for: rect(3, 4, 5, 2), in: area) == atOrigin.offsetBy(Point(x: 5, y: 2)))
    }

    @Test(arguments: areas)
    func wholeGridMapsOntoWholeArea(area: Rect) {
        #expect(grid.cellRect(for: grid.bounds, in: area) == area)
        let odd = GridSpec(columns: 5, rows: 7)
        #expect(odd.cellRect(for: odd.bounds, in: area) == area)
    }

    @Test(arguments: areas)
    func neighboursShareEdgesExactly(area: Rect) {
        // Given every pair of side-by-side and stacked unit cells,
        // then their cell rectangles meet with no gap and no overlap, and line up on the other axis.
        for y in 0..<12 {
            for x in 0..<12 {
                let here = grid.cellRect(for: rect(x, y, 1, 1), in: area)
                if x + 1 < 12 {
                    let right = grid.cellRect(for: rect(x + 1, y, 1, 1), in: area)
                    #expect(here.maxX == right.minX, "columns \(x), \(x + 1) in \(area)")
                    #expect(here.minY == right.minY && here.height == right.height)
                }
                if y + 1 < 12 {
                    let below = grid.cellRect(for: rect(x, y + 1, 1, 1), in: area)
                    #expect(here.maxY == below.minY, "rows \(y), \(y + 1) in \(area)")
                    #expect(here.minX == below.minX && here.width == below.width)
                }
            }
        }
    }

    @Test(arguments: areas)
    func unitColumnsAndRowsDifferByAtMostOneCell(area: Rect) {
        let widths = (0..<12).map { grid.cellRect(for: rect($0, 0, 1, 1), in: area).width }
        let heights = (0..<12).map { grid.cellRect(for: rect(0, $0, 1, 1), in: area).height }
        #expect(widths.reduce(0, +) == area.width)
        #expect(heights.reduce(0, +) == area.height)
        #expect(Set(widths).isSubset(of: [area.width / 12, area.width / 12 + 1]))
        #expect(Set(heights).isSubset(of: [area.height / 12, area.height / 12 + 1]))
    }

    @Test(arguments: areas, tilings)
    func tilingCoversAreaWithoutGapsOrOverlaps(area: Rect, tiling: [Rect]) {
        // Given a full tiling of the grid, when every tile is mapped,
        // then each terminal cell of the area is covered exactly once, and nothing outside it.
        var counts = Array(repeating: 0, count: area.width * area.height)
        for tile in tiling {
            let cells = grid.cellRect(for: tile, in: area)
            #expect(cells.width >= 0 && cells.height >= 0)
            #expect(area.contains(cells) || cells.isEmpty, "\(tile) maps to \(cells) outside \(area)")
            for y in cells.minY..<cells.maxY {
                for x in cells.minX..<cells.maxX {
                    counts[(y - area.minY) * area.width + (x - area.minX)] += 1
                }
            }
        }
        #expect(counts.allSatisfy { $0 == 1 }, "gaps: \(counts.filter { $0 == 0 }.count), overlaps: \(counts.filter { $0 > 1 }.count)")
    }

    @Test func irregularNeighboursShareEdges() {
        let area = rect(2, 1, 121, 37)
        let top = grid.cellRect(for: rect(0, 0, 5, 3), in: area)
        let topRight = grid.cellRect(for: rect(5, 0, 7, 3), in: area)
        let left = grid.cellRect(for: rect(0, 3, 3, 9), in: area)
        let middle = grid.cellRect(for: rect(3, 3, 9, 4), in: area)
        #expect(top.maxX == topRight.minX)
        #expect(top.maxY == left.minY)
        #expect(left.maxX == middle.minX)
        #expect(topRight.maxY == middle.minY)
        #expect(topRight.maxX == area.maxX)
        #expect(left.maxY == area.maxY)
    }

    @Test func theSmallestAreaIsTheFirstWhereEveryPaneGetsItsCells() {
        let cells = Size(width: 8, height: 3)
        for frames in Self.tilings {
            let area = grid.smallestArea(giving: frames, cells: cells, from: Size(width: 1, height: 1), upTo: Size(width: 500, height: 500))
            func fits(_ size: Size) -> Bool {
                frames.allSatisfy { frame in
                    let cell = grid.cellRect(for: frame, in: Rect(origin: .zero, size: size))
                    return cell.width >= cells.width && cell.height >= cells.height
                }
            }
            #expect(fits(area))
            #expect(!fits(Size(width: area.width - 1, height: area.height)))
            #expect(!fits(Size(width: area.width, height: area.height - 1)))
        }
        // Searched from `start` only, and `limit` where nothing up to it fits.
        #expect(grid.smallestArea(giving: [grid.bounds], cells: cells, from: Size(width: 20, height: 4), upTo: Size(width: 50, height: 50))
                == Size(width: 20, height: 4))
        #expect(grid.smallestArea(giving: [rect(0, 0, 1, 1)], cells: Size(width: 100, height: 100), from: Size(width: 1, height: 1),
                                  upTo: Size(width: 40, height: 30)) == Size(width: 40, height: 30))
    }
}
