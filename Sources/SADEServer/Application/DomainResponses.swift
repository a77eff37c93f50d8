import Foundation
import Hummingbird
import SADEHealth
import SADEIssueTrack
import SADEMonitoring

// The domain values routes answer with as they are: written by the request context's
// encoder (``APIResponseEncoder``). The modules that define them do not depend on
// Hummingbird, so the conformances live here.

extension AlertRecord: ResponseEncodable {}
extension Hospital: ResponseEncodable {}
extension HospitalSector: ResponseEncodable {}
extension Service: ResponseEncodable {}
