import Foundation
import Hummingbird
import SADEMonitoring

extension MonitoringServer {
    /// The thesis's DataItem controller: post, list one's own, read, delete, and an
    /// admin's views by project.
    func addWearableDataItemRoutes(to items: RouterGroup<MonitoringRequestContext>) {
        items.post { request, context in
            let caller = try context.requireCaller()
            // Refused before the body is read: a caller without the right learns nothing of how it would be judged.
            guard caller.role != .device else { throw APIError.forbidden("data items are sent with a user's login token, not a device token") }
            guard caller.role != .relative else { throw APIError.forbidden("a relative's account has no wearable data") }
            let input = try await request.decode(as: WearableDataItemInput.self, context: context)
            let item = try await system.wearable.record(input.reading, by: caller, at: system.now())
            if !item.sampleIDs.isEmpty { wearableSamplesSaved(item.sampleIDs.count) }
            return EditedResponse(status: .created, response: WearableDataItemView(item))
        }

        items.get { _, context in
            let caller = try context.requireCaller()
            return try await system.wearable.store.items(ownedBy: caller.id).map { WearableDataItemView($0) }
        }

        // The item with its owner's name, for the admin panel's pop-up (thesis Figure 4.48).
        items.get("getProjectDataWithUser/:id") { _, context in
            let caller = try context.requireCaller()
            let (item, owner) = try await system.wearable.item(try wearableNumber("id", in: context), for: caller)
            return WearableDataItemView(item, ownerName: owner?.name)
        }

        // Every item of the users in a project, for the admin panel's project table.
        items.get("getProjectData/:id") { _, context in
            _ = try context.requireAdmin()
            return try await system.wearable.items(inProject: try wearableNumber("id", in: context)).map { WearableDataItemView($0) }
        }

        items.get(":id") { _, context in
            let caller = try context.requireCaller()
            let (item, _) = try await system.wearable.item(try wearableNumber("id", in: context), for: caller)
            return WearableDataItemView(item)
        }

        // Anyone may delete their own items, no questions asked (GDPR); an admin any item.
        items.delete(":id") { _, context -> Response in
            let caller = try context.requireCaller()
            try await system.wearable.delete(try wearableNumber("id", in: context), by: caller)
            return Response(status: .noContent)
        }
    }
}
