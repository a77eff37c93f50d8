import SADEHealth

extension FlatPlan {
    /// A small flat of 9 × 7 m — hall, kitchen, living room, bedroom, bathroom — with a
    /// device of nearly every kind of the thesis: motion in every room, the entrance
    /// door, appliances, a pill dispenser, a bed mat, hazard detectors, meters with a PV
    /// generator, and three actuators. Object ids are stable (`kitchen_motion`,
    /// `pv_power`, `desk_lamp`, `hall_dimmer`, `bedroom_shades`, …).
    public static func demoFlat(name: String, resident: PatientID?, carers: [String], timeZone: String = "UTC") -> FlatPlan {
        func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> [PlanPoint] {
            [PlanPoint(x: x, y: y), PlanPoint(x: x + width, y: y), PlanPoint(x: x + width, y: y + height), PlanPoint(x: x, y: y + height)]
        }
        func device(_ objectID: String, _ name: String, _ kind: DeviceKind, _ x: Double, _ y: Double, battery: Bool = false) -> DevicePlan {
            DevicePlan(name: name, kind: kind, position: PlanPoint(x: x, y: y), isBatteryPowered: battery, objectID: objectID)
        }
        let rooms = [
            RoomPlan(name: "Hall", type: .hall, polygon: rectangle(0, 0, 3, 3), doors: [Door(position: PlanPoint(x: 0, y: 1.5))], devices: [
                device("hall_motion", "Hall motion", .motion, 1.5, 1.5, battery: true),
                device("entrance_door", "Entrance door", .contact, 0.1, 1.5, battery: true),
                device("property_exit", "Leaving the flat", .propertyExit, 0.3, 2.0, battery: true),
                device("hall_switch", "Hall switch", .switchSensor, 2.8, 0.3, battery: true),
                device("hall_smoke", "Hall smoke", .smoke, 1.5, 1.0, battery: true),
                device("hall_dimmer", "Hall light", .dimmer, 1.5, 2.0),
                device("house_power", "House power", .power, 0.3, 0.3),
                device("house_energy", "House energy", .energy, 0.3, 0.5),
                device("mains_voltage", "Mains voltage", .voltage, 0.3, 0.7),
                device("pv_power", "PV power", .powerGeneration, 2.7, 2.7),
                device("pv_energy", "PV energy", .energyGeneration, 2.5, 2.7),
            ]),
            RoomPlan(name: "Kitchen", type: .kitchen, polygon: rectangle(3, 0, 3, 3), doors: [Door(position: PlanPoint(x: 3, y: 1.5))], devices: [
                device("kitchen_motion", "Kitchen motion", .motion, 4.5, 1.5, battery: true),
                device("kettle", "Kettle", .usage, 5.5, 0.4),
                device("fridge_door", "Fridge door", .contact, 5.7, 2.5, battery: true),
                device("pill_dispenser", "Pill dispenser", .dosage, 3.4, 0.4, battery: true),
                device("kitchen_smoke", "Kitchen smoke", .smoke, 4.5, 0.8, battery: true),
                device("kitchen_gas", "Gas", .gas, 5.5, 1.0),
                device("kitchen_temperature", "Kitchen temperature", .temperature, 3.3, 2.7, battery: true),
            ]),
            RoomPlan(name: "Living room", type: .livingRoom, polygon: rectangle(6, 0, 3, 4), doors: [Door(position: PlanPoint(x: 6, y: 2))], devices: [
                device("living_motion", "Living room motion", .motion, 7.5, 2.0, battery: true),
                device("desk_lamp", "Desk lamp", .switchActuator, 8.5, 0.5),
                device("living_brightness", "Living room brightness", .brightness, 8.7, 3.5, battery: true),
                device("living_temperature", "Living room temperature", .temperature, 6.3, 3.7, battery: true),
            ]),
            RoomPlan(name: "Bedroom", type: .bedroom, polygon: rectangle(0, 3, 5, 4), doors: [Door(position: PlanPoint(x: 1.5, y: 3))], devices: [
                device("bedroom_motion", "Bedroom motion", .motion, 2.5, 5.0, battery: true),
                device("bed_mat", "Bed mat", .enuresis, 1.0, 5.5, battery: true),
                device("bedroom_window", "Bedroom window", .windowHandle, 4.9, 5.0, battery: true),
                device("bedroom_shades", "Bedroom shades", .shades, 4.9, 6.0),
                device("bedroom_temperature", "Bedroom temperature", .temperature, 0.3, 6.7, battery: true),
            ]),
            RoomPlan(name: "Bathroom", type: .bathroom, polygon: rectangle(5, 4, 4, 3), doors: [Door(position: PlanPoint(x: 5, y: 5.5))], devices: [
                device("bathroom_motion", "Bathroom motion", .motion, 7.0, 5.5, battery: true),
                device("toilet_flush", "Toilet flush", .usage, 8.5, 6.5),
                device("bathroom_fall", "Fall detector", .fall, 7.0, 6.0, battery: true),
                device("bathroom_water", "Water on the floor", .water, 6.0, 6.7, battery: true),
                device("bathroom_temperature", "Bathroom temperature", .temperature, 8.7, 4.3, battery: true),
            ]),
        ]
        return FlatPlan(name: name, resident: resident, carers: carers, timeZone: timeZone, rooms: rooms)
    }
}
