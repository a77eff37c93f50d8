import Foundation

/// The anomaly engine behind ``AnomaliesAction``: checks batches of samples against
/// each patient's typical ranges, scores NEWS2 per patient, notices patients who
/// stopped sending data, and turns findings into one alert per episode.
///
/// **Episodes.** The first abnormal finding of a kind (a vital sign out of range,
/// NEWS2 at or above the reporting band, no data) opens an episode and is reported
/// as an ``AnomalyPhase/onset``. Further abnormal findings are not reported again
/// unless they are worse — a higher severity, NEWS2 band or NEWS2 total than
/// reported so far — which is an ``AnomalyPhase/escalation``. The episode ends, reported as
/// ``AnomalyPhase/resolved``, once the values have been back in range for
/// ``Configuration/rearmAfter`` with nothing abnormal in between (hysteresis); only
/// then does the next abnormal value open a new episode. A no-data episode ends
/// when data arrives.
///
/// **Time** is whatever the caller says it is: every method takes `now`, and sample
/// times come from the samples. The detector never reads a clock. A sample dated
/// after `now` (a device with a wrong clock) counts as data arriving at `now`, so it
/// cannot hold off the no-data check until its date; and it does not hide later
/// samples of its NEWS2 parameter, since it does not count for NEWS2 before its time.
public actor AnomalyDetector {
    /// What is reported when.
    nonisolated public let configuration: Configuration

    private struct EpisodeKey: Hashable {
        let patient: PatientID
        let kind: AnomalyKind
    }

    private var episodes: [EpisodeKey: AnomalyEpisode] = [:]
    /// The patients being watched: their records (standard ranges when unknown).
    private var patients: [PatientID: Patient] = [:]
    /// When each patient started to be watched.
    private var watchedSince: [PatientID: Date] = [:]
    /// When each patient's latest sample ended.
    private var lastSample: [PatientID: Date] = [:]
    /// The latest sample of each NEWS2 parameter per patient.
    private var news2Samples: [PatientID: [NEWS2Parameter: HealthSample]] = [:]
    /// The parameters that scored in a patient's latest NEWS2 at or above the reporting
    /// band: the episode can only end once each has been measured again.
    private var news2Scoring: [PatientID: Set<NEWS2Parameter>] = [:]

    /// Creates a detector.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The episodes in progress, oldest first.
    public var openEpisodes: [AnomalyEpisode] {
        episodes.values.sorted { ($0.started, $0.patient, $0.kind.description) < ($1.started, $1.patient, $1.kind.description) }
    }

    /// Checks a batch of new samples at `now` and returns the anomalies to report:
    /// onsets, escalations and resolutions, in time order.
    ///
    /// Every patient in `patients` (or with a sample) is watched from now on, which
    /// includes ``checkForMissingData(at:)``. Samples are checked in time order;
    /// samples that fail ``HealthSample/validate()`` are ignored (a store never holds
    /// them). A patient without a record is checked against the standard ranges.
    public func evaluate(_ samples: [HealthSample], patients records: [PatientID: Patient], at now: Date) -> [Anomaly] {
        for (id, patient) in records { watch(id, record: patient, at: now) }
        let valid = samples.filter { (try? $0.validate()) != nil }.sorted { $0.start < $1.start }
        var anomalies: [Anomaly] = []
        for sample in valid {
            watch(sample.patient, record: nil, at: now)
            anomalies += dataArrived(for: sample.patient, at: min(sample.end, now))
            for member in Self.flattened(sample) {
                remember(member, at: now)
                anomalies += checkRange(of: member)
            }
        }
        let scored = Set(valid.map(\.patient)).union(episodes.keys.filter { $0.kind == .news2 }.map(\.patient))
        for patient in scored.sorted() { anomalies += checkNEWS2(of: patient, at: now) }
        anomalies += resolveSettledEpisodes(at: now)
        return anomalies.sorted { $0.time < $1.time }
    }

    /// Reports every watched patient whose last sample (or, without any, the start of
    /// watching) is at least ``Configuration/noDataAfter`` old at `now` — once per
    /// silence, which ends when a sample arrives — and ends episodes
    /// whose values have been back in range long enough.
    public func checkForMissingData(at now: Date) -> [Anomaly] {
        var anomalies = resolveSettledEpisodes(at: now)
        for (patient, since) in watchedSince.sorted(by: { $0.key < $1.key }) {
            let key = EpisodeKey(patient: patient, kind: .noData)
            let silentSince = lastSample[patient] ?? since
            guard episodes[key] == nil, now.timeIntervalSince(silentSince) >= configuration.noDataAfter else { continue }
            let episode = AnomalyEpisode(patient: patient, kind: .noData, started: now, severity: configuration.noDataSeverity, band: nil)
            episodes[key] = episode
            anomalies.append(report(episode, .onset, lastData: lastSample[patient], at: now))
        }
        return anomalies
    }

    /// Stops watching `patient`: forgets its episodes and data, reports nothing more.
    public func stopMonitoring(_ patient: PatientID) {
        episodes = episodes.filter { $0.key.patient != patient }
        patients[patient] = nil
        watchedSince[patient] = nil
        lastSample[patient] = nil
        news2Samples[patient] = nil
        news2Scoring[patient] = nil
    }

    /// Stops watching every patient but those `keep` says yes to (the others' evaluation
    /// moved to another node): as ``stopMonitoring(_:)`` for each.
    public func stopMonitoring(allBut keep: (PatientID) -> Bool) {
        let known = Set(patients.keys).union(watchedSince.keys).union(lastSample.keys).union(episodes.keys.map(\.patient))
        for patient in known where !keep(patient) { stopMonitoring(patient) }
    }

    // MARK: - Findings

    private func watch(_ patient: PatientID, record: Patient?, at now: Date) {
        if let record { patients[patient] = record }
        if patients[patient] == nil { patients[patient] = Patient(id: patient, name: patient.rawValue) }
        if watchedSince[patient] == nil { watchedSince[patient] = now }
    }

    /// Data from `patient`: newer data than any before ends a no-data episode.
    private func dataArrived(for patient: PatientID, at time: Date) -> [Anomaly] {
        if let last = lastSample[patient], last >= time { return [] }
        lastSample[patient] = time
        let key = EpisodeKey(patient: patient, kind: .noData)
        guard let episode = episodes.removeValue(forKey: key) else { return [] }
        return [report(episode, .resolved, lastData: time, at: max(time, episode.started))]
    }

    private func remember(_ sample: HealthSample, at now: Date) {
        let parameter: NEWS2Parameter? =
            switch sample.type {
            case .quantity(let type): NEWS2Parameter.allCases.first { $0.quantityType == type }
            case .category(let type): NEWS2Parameter.allCases.first { $0.categoryType == type }
            default: nil
            }
        guard let parameter else { return }
        if let current = news2Samples[sample.patient]?[parameter] {
            // The latest sample is kept; but one from the future (which NEWS2 cannot use
            // yet) never pushes out one it can use now.
            let present = now.addingTimeInterval(configuration.clockSkewTolerance)
            let currentIsPast = current.end <= present, sampleIsPast = sample.end <= present
            if currentIsPast != sampleIsPast ? currentIsPast : current.end > sample.end { return }
        }
        news2Samples[sample.patient, default: [:]][parameter] = sample
    }

    private func checkRange(of sample: HealthSample) -> [Anomaly] {
        guard let reading = PatientVitalSign(sample), let patient = patients[sample.patient],
            let range = patient.typicalRange(of: reading.type)
        else { return [] }
        let severity = configuration.severity(of: reading.value, in: range)
        return track(
            .outOfRange(reading.type), of: sample.patient, severity: severity, band: nil, total: nil, at: reading.date,
            typicalRange: range, readings: [reading], score: nil)
    }

    private func checkNEWS2(of patient: PatientID, at now: Date) -> [Anomaly] {
        let samples = Array(news2Samples[patient, default: [:]].values)
        let scale2 = patients[patient]?.usesSpO2Scale2 ?? false
        // Readings stamped slightly ahead of this clock (device clock skew) are current.
        let present = now.addingTimeInterval(configuration.clockSkewTolerance)
        guard let score = try? NEWS2Score(
            latestOf: samples, at: present, window: configuration.news2Window + configuration.clockSkewTolerance, scale2: scale2) else {
            return []
        }
        // Readings that merely aged out of the window say nothing about the patient:
        // without a measured parameter there is no evidence of recovery (silence is the
        // no-data anomaly's business).
        let measured = Set(NEWS2Parameter.allCases.filter { $0 != .airOrOxygen && !score.missing.contains($0) })
        guard !measured.isEmpty else { return [] }
        let earliest = now.addingTimeInterval(-configuration.news2Window)
        let readings = samples.compactMap(PatientVitalSign.init).filter { $0.date >= earliest && $0.date <= present }
            .sorted { $0.type.rawValue < $1.type.rawValue }
        let severity = configuration.severity(of: score)
        if severity != nil {
            news2Scoring[patient] = Set(NEWS2Parameter.allCases.filter { $0 != .airOrOxygen && (score.subscore($0) ?? 0) > 0 })
        } else if let scoring = news2Scoring[patient], !scoring.isSubset(of: measured) {
            return []  // what made the score high has not been measured again: no evidence of recovery
        } else {
            news2Scoring[patient] = nil
        }
        return track(
            .news2, of: patient, severity: severity, band: severity == nil ? nil : score.band, total: severity == nil ? nil : score.total,
            at: now, typicalRange: nil, readings: readings, score: score)
    }

    // MARK: - Episodes

    /// Feeds one finding into the episode of its kind: `severity` is `nil` when the
    /// value is back in range.
    private func track(
        _ kind: AnomalyKind, of patient: PatientID, severity: AnomalySeverity?, band: NEWS2Band?, total: Int?, at time: Date,
        typicalRange: ClosedRange<Double>?, readings: [PatientVitalSign], score: NEWS2Score?
    ) -> [Anomaly] {
        let key = EpisodeKey(patient: patient, kind: kind)
        var anomalies: [Anomaly] = []
        // Back in range long enough before this finding: the episode ended then.
        if let episode = episodes[key], let end = episode.end(rearmAfter: configuration.rearmAfter), end <= time {
            episodes[key] = nil
            anomalies.append(report(episode, .resolved, at: end))
        }
        guard let severity else {
            if var episode = episodes[key], episode.inRangeSince == nil {
                episode.inRangeSince = time
                episodes[key] = episode
            }
            return anomalies
        }
        if var episode = episodes[key] {
            episode.inRangeSince = nil
            if episode.isWorse(severity: severity, band: band, total: total) {
                episode.record(severity: severity, band: band, total: total)
                anomalies.append(report(episode, .escalation, readings: readings, score: score, at: time))
            }
            episodes[key] = episode
        } else {
            var episode = AnomalyEpisode(patient: patient, kind: kind, started: time, severity: severity, band: band, total: total)
            episode.typicalRange = typicalRange
            episodes[key] = episode
            anomalies.append(report(episode, .onset, readings: readings, score: score, at: time))
        }
        return anomalies
    }

    /// Ends every episode whose values have been back in range for `rearmAfter` at `now`.
    private func resolveSettledEpisodes(at now: Date) -> [Anomaly] {
        var anomalies: [Anomaly] = []
        for (key, episode) in episodes {
            guard let end = episode.end(rearmAfter: configuration.rearmAfter), end <= now else { continue }
            episodes[key] = nil
            anomalies.append(report(episode, .resolved, at: end))
        }
        return anomalies.sorted { $0.time < $1.time }
    }

    private func report(
        _ episode: AnomalyEpisode, _ phase: AnomalyPhase, readings: [PatientVitalSign] = [], score: NEWS2Score? = nil,
        lastData: Date? = nil, at time: Date
    ) -> Anomaly {
        Anomaly(
            episode: episode.id, patient: episode.patient, kind: episode.kind, phase: phase, severity: episode.severity,
            readings: readings, typicalRange: episode.typicalRange, score: score, lastData: lastData, time: time)
    }

    private static func flattened(_ sample: HealthSample) -> [HealthSample] {
        if case .correlation(let members) = sample.value { return members }
        return [sample]
    }
}
