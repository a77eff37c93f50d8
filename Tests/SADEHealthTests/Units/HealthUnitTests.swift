import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("Health units", .timeLimit(.minutes(5)), .timed)
struct HealthUnitTests {
    @Test("every documented symbol parses to a unit of the right dimension", arguments: [
        ("count/min", HealthUnit.Dimension.frequency), ("%", .fraction), ("degC", .temperature), ("degF", .temperature),
        ("mmHg", .pressure), ("count", .count), ("kg", .mass), ("ms", .time), ("V", .voltage), ("mV", .voltage), ("µV", .voltage),
    ])
    func parsesSymbols(symbol: String, dimension: HealthUnit.Dimension) throws {
        let unit = try HealthUnit(parsing: symbol)
        #expect(unit.symbol == symbol)
        #expect(unit.dimension == dimension)
    }

    @Test("UCUM spellings parse to the same units")
    func parsesUCUM() throws {
        #expect(try HealthUnit(parsing: "/min") == .countPerMinute)
        #expect(try HealthUnit(parsing: "Cel") == .degreeCelsius)
        #expect(try HealthUnit(parsing: "[degF]") == .degreeFahrenheit)
        #expect(try HealthUnit(parsing: "mm[Hg]") == .millimeterOfMercury)
        #expect(try HealthUnit(parsing: "uV") == .microvolt)
        #expect(try HealthUnit(parsing: " kg ") == .kilogram)
        #expect(HealthUnit.millimeterOfMercury.ucumCode == "mm[Hg]")
    }

    @Test("an unknown symbol is an unknownUnit error naming it")
    func rejectsUnknownSymbol() {
        #expect(throws: HealthError.unknownUnit("beats")) { try HealthUnit(parsing: "beats") }
    }

    @Test("conversions within a dimension", arguments: [
        (98.6, HealthUnit.degreeFahrenheit, HealthUnit.degreeCelsius, 37.0),
        (37.0, .degreeCelsius, .degreeFahrenheit, 98.6),
        (-40, .degreeCelsius, .degreeFahrenheit, -40),
        (1, .volt, .microvolt, 1_000_000),
        (1, .millivolt, .microvolt, 1000),
        (2500, .microvolt, .millivolt, 2.5),
        (1, .kilopascal, .millimeterOfMercury, 7.500_615_75),
        (1, .pound, .kilogram, 0.453_592_37),
        (1500, .gram, .kilogram, 1.5),
        (1, .second, .millisecond, 1000),
        (1, .hertz, .countPerMinute, 60),
        (0.95, .fraction, .percent, 95),
    ])
    func converts(value: Double, from: HealthUnit, to: HealthUnit, expected: Double) throws {
        let converted = try from.convert(value, to: to)
        #expect(abs(converted - expected) < 1e-9 * max(1, abs(expected)), "\(value) \(from) is \(converted) \(to)")
        #expect(try HealthQuantity(value, from).value(in: to) == converted)
    }

    @Test("converting between dimensions is an incompatibleUnits error")
    func rejectsIncompatibleConversion() {
        #expect(throws: HealthError.incompatibleUnits(from: "kg", to: "mmHg")) { try HealthUnit.kilogram.convert(70, to: .millimeterOfMercury) }
        #expect(throws: HealthError.incompatibleUnits(from: "%", to: "degC")) { try HealthQuantity(95, .percent).value(in: .degreeCelsius) }
    }

    @Test("units encode as their symbol and unknown symbols do not decode")
    func codable() throws {
        let data = try JSONEncoder().encode([HealthUnit.degreeFahrenheit, .microvolt])
        #expect(String(decoding: data, as: UTF8.self) == #"["degF","µV"]"#)
        #expect(try JSONDecoder().decode([HealthUnit].self, from: data) == [.degreeFahrenheit, .microvolt])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([HealthUnit].self, from: Data(#"["furlong"]"#.utf8)) }
    }

    @Test("every type identifier names its type, and unknown identifiers are errors")
    func typeIdentifiers() throws {
        for type in HealthType.all {
            #expect(try HealthType(identifier: type.identifier) == type)
        }
        #expect(throws: HealthError.unknownType("bloodGlucose")) { try HealthType(identifier: "bloodGlucose") }
        #expect(QuantityType.stepCount.aggregation == .cumulative)
        #expect(QuantityType.heartRate.aggregation == .discrete)
    }
}
