import Foundation
import Hummingbird
import SADETestSupport
import SADEServer

/// What the OpenAPI tests ask of a document: its operations as `METHOD /path`
/// keys, comparable with the router's routes, and checks run by Python's
/// `openapi-spec-validator` and `jsonschema` (installed by `scripts/test`).
enum OpenAPIChecks {
    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// `METHOD /path` with `{captures}`, literal segments lowercased: the router is
    /// case-insensitive and lists `/Api/User/login` as `/api/user/login`.
    static func key(method: String, path: String) -> String {
        let segments = path.split(separator: "/").map { $0.hasPrefix("{") ? String($0) : $0.lowercased() }
        return "\(method.uppercased()) /\(segments.joined(separator: "/"))"
    }

    /// Every operation of `document`.
    static func operations(of document: [String: Any]) -> Set<String> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        return Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { key(method: $0, path: path) } })
    }

    /// Every route `router` serves.
    static func routes(of router: Router<MonitoringRequestContext>) -> Set<String> {
        Set(router.routes.map { key(method: $0.method.rawValue, path: $0.path.description) })
    }

    /// Runs the tests' Python on `arguments…` with `files` written to a fresh directory
    /// (the arguments name them as `$name`); returns the exit status and everything printed.
    static func python(_ arguments: [String], files: [String: Data], modules: [String]) async throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
        let resolved = arguments.map { $0.hasPrefix("$") ? directory.appendingPathComponent(String($0.dropFirst())).path : $0 }
        let run = try await SadeProcess.python(resolved, modules: modules)
        return (run.status, run.output + run.error)
    }

    /// Checks recorded answers against the document: each one's operation and status
    /// are documented, its media type is, and its JSON body validates against the
    /// documented schema with no undocumented property (`additionalProperties: false`
    /// wherever the document lists properties and says nothing else). An answer with a
    /// `schema` instead of a path is checked against that component schema.
    static let conformanceScript = #"""
        import json, sys
        from jsonschema import Draft202012Validator
        document = json.load(open(sys.argv[1]))
        answers = json.load(open(sys.argv[2]))
        def strict(node):
            if isinstance(node, dict):
                if "properties" in node and "additionalProperties" not in node:
                    node["additionalProperties"] = False
                for value in node.values(): strict(value)
            elif isinstance(node, list):
                for value in node: strict(value)
        components = json.loads(json.dumps(document["components"]))
        strict(components["schemas"])
        def check(where, schema, body):
            validator = Draft202012Validator({"components": components, "allOf": [schema]})
            return [f"{where}: at /{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]
        failures = []
        for answer in answers:
            if "schema" in answer:
                failures += check(answer["schema"], {"$ref": "#/components/schemas/" + answer["schema"]}, answer["body"])
                continue
            where = f'{answer["method"].upper()} {answer["path"]} {answer["status"]}'
            operation = document["paths"].get(answer["path"], {}).get(answer["method"])
            if operation is None:
                failures.append(f"{where}: the operation is not documented"); continue
            response = operation["responses"].get(str(answer["status"]))
            if response is None:
                failures.append(f"{where}: the status is not documented"); continue
            if "$ref" in response:
                response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            content = response.get("content", {})
            if answer.get("contentType") is None:
                if content: failures.append(f"{where}: documented with a body, answered without one")
                continue
            media = content.get(answer["contentType"])
            if media is None:
                failures.append(f'{where}: {answer["contentType"]} is not documented (only {", ".join(content) or "no body"})'); continue
            if "body" in answer:
                failures += check(where, media["schema"], answer["body"])
        print("\n".join(failures) if failures else f"{len(answers)} answers conform")
        sys.exit(1 if failures else 0)
        """#
}
