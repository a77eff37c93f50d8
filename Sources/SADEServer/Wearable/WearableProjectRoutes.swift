import Foundation
import Hummingbird
import SADEMonitoring

extension MonitoringServer {
    /// The thesis's Project controller: every signed-in user may list and read
    /// projects (not a device token: it only writes its patient's observations); an
    /// admin creates them and assigns users.
    func addWearableProjectRoutes(to projects: RouterGroup<MonitoringRequestContext>) {
        projects.get { _, context in
            try Self.requirePerson(context)
            return try await system.wearable.store.projects().map(WearableProjectView.init)
        }

        projects.post { request, context in
            let admin = try context.requireAdmin()
            let input = try await request.decode(as: WearableProjectInput.self, context: context)
            let project = try await system.wearable.store.createProject(name: input.name, description: input.description, adminID: admin.id, at: system.now())
            return EditedResponse(status: .created, response: WearableProjectView(project))
        }

        // The admin panel's "Assign user to a project": {"username", "projectId"}.
        projects.put("assign") { request, context -> Response in
            _ = try context.requireAdmin()
            let input = try await request.decode(as: WearableProjectAssignment.self, context: context)
            try await system.wearable.assign(username: input.username, to: input.projectID)
            return Response(status: .noContent)
        }

        projects.get(":id") { _, context in
            try Self.requirePerson(context)
            let id: Int = try wearableNumber("id", in: context)
            guard let project = try await system.wearable.store.project(id) else { throw APIError.notFound("no project \(id)") }
            return WearableProjectView(project)
        }
    }

    /// 401 anonymous, 403 for a device token and for a relative (who only looks at their patients).
    static func requirePerson(_ context: MonitoringRequestContext) throws {
        let role = try context.requireCaller().role
        guard role != .device else { throw APIError.forbidden("a device token only writes its patient's observations") }
        guard role != .relative else { throw APIError.forbidden("a relative's account has no wearable data") }
    }
}
