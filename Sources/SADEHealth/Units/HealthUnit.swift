import Foundation

/// A unit of measure for health quantities, parsed from its UCUM-like symbol
/// (`count/min`, `%`, `degC`, `degF`, `mmHg`, `count`, `kg`, `ms`, `V`, `mV`, `µV` …).
///
/// Units of one ``Dimension`` convert into each other; any other conversion is a
/// ``HealthError/incompatibleUnits(from:to:)``.
public struct HealthUnit: Hashable, Sendable, Codable, CustomStringConvertible {
    /// What a unit measures; only units of the same dimension convert. An app names its
    /// own (`Dimension("flow")`) for the units it registers.
    public struct Dimension: RawRepresentable, Hashable, Sendable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ name: String) { rawValue = name }

        public static let frequency = Dimension("frequency")
        public static let fraction = Dimension("fraction")
        public static let temperature = Dimension("temperature")
        public static let pressure = Dimension("pressure")
        public static let count = Dimension("count")
        public static let mass = Dimension("mass")
        public static let time = Dimension("time")
        public static let voltage = Dimension("voltage")
    }

    /// The unit's symbol, e.g. `count/min`.
    public let symbol: String
    /// What it measures.
    public let dimension: Dimension
    /// value × scale + offset = value in the dimension's base unit.
    let scale: Double
    let offset: Double
    /// The UCUM code, when it is not the symbol.
    private let ucum: String?

    private init(_ symbol: String, _ dimension: Dimension, scale: Double = 1, offset: Double = 0, ucum: String? = nil) {
        self.symbol = symbol
        self.dimension = dimension
        self.scale = scale
        self.offset = offset
        self.ucum = ucum
    }

    /// Beats or breaths per minute.
    public static let countPerMinute = HealthUnit("count/min", .frequency, ucum: "/min")
    /// Per second (Hz), e.g. an ECG's sampling frequency.
    public static let hertz = HealthUnit("Hz", .frequency, scale: 60)
    /// Percent, 0–100.
    public static let percent = HealthUnit("%", .fraction)
    /// A plain fraction, 0–1.
    public static let fraction = HealthUnit("1", .fraction, scale: 100)
    /// Degrees Celsius.
    public static let degreeCelsius = HealthUnit("degC", .temperature, ucum: "Cel")
    /// Degrees Fahrenheit.
    public static let degreeFahrenheit = HealthUnit("degF", .temperature, scale: 5.0 / 9.0, offset: -32 * 5.0 / 9.0, ucum: "[degF]")
    /// Millimetres of mercury.
    public static let millimeterOfMercury = HealthUnit("mmHg", .pressure, ucum: "mm[Hg]")
    /// Kilopascal.
    public static let kilopascal = HealthUnit("kPa", .pressure, scale: 7.500_615_75)
    /// A count (steps).
    public static let count = HealthUnit("count", .count, ucum: "{steps}")
    /// Kilograms.
    public static let kilogram = HealthUnit("kg", .mass)
    /// Grams.
    public static let gram = HealthUnit("g", .mass, scale: 0.001)
    /// Pounds.
    public static let pound = HealthUnit("lb", .mass, scale: 0.453_592_37, ucum: "[lb_av]")
    /// Milliseconds.
    public static let millisecond = HealthUnit("ms", .time)
    /// Seconds.
    public static let second = HealthUnit("s", .time, scale: 1000)
    /// Volts.
    public static let volt = HealthUnit("V", .voltage, scale: 1_000_000)
    /// Millivolts.
    public static let millivolt = HealthUnit("mV", .voltage, scale: 1000)
    /// Microvolts.
    public static let microvolt = HealthUnit("µV", .voltage, ucum: "uV")

    /// SADE's units.
    public static let builtIn: [HealthUnit] = [
        countPerMinute, hertz, percent, fraction, degreeCelsius, degreeFahrenheit, millimeterOfMercury, kilopascal,
        count, kilogram, gram, pound, millisecond, second, volt, millivolt, microvolt,
    ]

    /// Every known unit: SADE's, then the app's in the order registered.
    public static var all: [HealthUnit] { registered.all }

    /// Adds an app's unit: `value × scale + offset` is the value in `dimension`'s base
    /// unit (the unit registered with scale 1 and offset 0). Registering the same
    /// definition again returns it.
    ///
    /// - Parameters:
    ///   - aliases: other spellings ``init(parsing:)`` accepts.
    ///   - ucum: the UCUM code FHIR uses, if it is not `symbol` (parsed as well).
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an empty symbol, a
    ///   scale of zero, or a symbol or alias another unit has.
    @discardableResult
    public static func register(
        _ symbol: String, dimension: Dimension, scale: Double = 1, offset: Double = 0, ucum: String? = nil, aliases: [String] = []
    ) throws(HealthError) -> HealthUnit {
        let names = [symbol] + aliases + (ucum.map { [$0] } ?? [])
        for name in names {
            guard !name.isEmpty, name.trimmingCharacters(in: .whitespaces) == name else {
                throw .invalidValue(field: "symbol", reason: "\(name.debugDescription) is empty or has white space around it")
            }
        }
        guard scale.isFinite, scale != 0, offset.isFinite else {
            throw .invalidValue(field: "scale", reason: "must be a finite number other than zero (and the offset finite)")
        }
        // The UCUM code is a name too: FHIR import reads it.
        return try registered.add(
            HealthUnit(symbol, dimension, scale: scale, offset: offset, ucum: ucum), names: names, isSame: { $0.isSameDefinition(as: $1) }
        ) { name in .invalidValue(field: "symbol", reason: "\(name) is the symbol of another unit") }
    }

    private func isSameDefinition(as other: HealthUnit) -> Bool {
        symbol == other.symbol && dimension == other.dimension && scale == other.scale && offset == other.offset && ucum == other.ucum
    }

    /// SADE's units by symbol, UCUM code and other spellings.
    private static let registered: NameRegistry<HealthUnit> = {
        let aliases: [String: [String]] = [
            "count/min": ["/min", "{beats}/min", "{breaths}/min"], "degC": ["Cel"], "degF": ["[degF]"], "mmHg": ["mm[Hg]"],
            "count": ["{count}", "{steps}"], "µV": ["uV", "μV"],  // Greek mu as well as the micro sign
            "lb": ["[lb_av]"],
        ]
        return NameRegistry(builtIn.map { (value: $0, names: [$0.symbol] + (aliases[$0.symbol] ?? [])) })
    }()

    /// Parses a unit symbol; UCUM spellings such as `/min`, `Cel`, `mm[Hg]` are accepted too.
    public init(parsing symbol: String) throws(HealthError) {
        let trimmed = symbol.trimmingCharacters(in: .whitespaces)
        guard let unit = Self.registered[trimmed] else { throw .unknownUnit(symbol) }
        self = unit
    }

    /// The UCUM code FHIR uses for this unit.
    public var ucumCode: String { ucum ?? symbol }

    /// `value` in this unit expressed in `target`.
    public func convert(_ value: Double, to target: HealthUnit) throws(HealthError) -> Double {
        guard dimension == target.dimension else { throw .incompatibleUnits(from: symbol, to: target.symbol) }
        if self == target { return value }
        return (value * scale + offset - target.offset) / target.scale
    }

    /// The symbol.
    public var description: String { symbol }

    public static func == (lhs: HealthUnit, rhs: HealthUnit) -> Bool { lhs.symbol == rhs.symbol }
    public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }

    /// Encodes the symbol.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(symbol)
    }

    /// Decodes a symbol; unknown ones are an error.
    public init(from decoder: any Decoder) throws {
        let symbol = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try HealthUnit(parsing: symbol)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}

/// A value with its unit.
public struct HealthQuantity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The number.
    public let value: Double
    /// Its unit.
    public let unit: HealthUnit

    /// Creates a quantity.
    public init(_ value: Double, _ unit: HealthUnit) {
        self.value = value
        self.unit = unit
    }

    /// The value expressed in `unit`.
    public func value(in unit: HealthUnit) throws(HealthError) -> Double {
        try self.unit.convert(value, to: unit)
    }

    /// E.g. `72 count/min`.
    public var description: String { "\(value) \(unit.symbol)" }
}
