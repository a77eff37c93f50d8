import Foundation

/// One report of a wearable device as stored (the thesis's `DataItem`): what the
/// device measured, who sent it and when the server received it.
public struct WearableDataItem: Hashable, Sendable, Codable, Identifiable {
    /// Unique, counting up from 1.
    public var id: Int64
    /// The account that sent it.
    public var ownerID: String
    /// What the device measured.
    public var reading: WearableReading
    /// When the server received it (set by the server, never by the device).
    public var sentDate: Date
    /// The health samples made of it in the owner's patient record, removed with it.
    public var sampleIDs: [UUID]

    /// Creates a data item value.
    public init(id: Int64, ownerID: String, reading: WearableReading, sentDate: Date, sampleIDs: [UUID] = []) {
        self.id = id
        self.ownerID = ownerID
        self.reading = reading
        self.sentDate = sentDate
        self.sampleIDs = sampleIDs
    }
}
