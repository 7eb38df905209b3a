// Package provider is the Terraform side of the video hosting service: schemas, plan
// modifiers, validators, state mapping, diagnostics and import. It knows nothing of HTTP or
// JSON; every call to the service goes through internal/videohost.
//
// # Adding a data source
//
// Every data source follows one template; copy video_data_source.go and videos_data_source.go.
//
//   - Files: <thing>_data_source.go reads one by id, <things>_data_source.go lists them.
//   - Names: type <thing>DataSource, constructor New<Thing>DataSource, model <thing>Model,
//     computed attributes <thing>DataAttributes(), converter <thing>ModelFrom(...) from the
//     client's type. The list data source nests <thing>DataAttributes() and builds its list
//     with listValue and the model's object() (list_values.go says why; add the model to
//     TestObjectsMatchReflection).
//   - Read, in this order: requireConfigured(d.pd, ...); req.Config.Get into the model; the
//     client call; on error addAPIErrorDiagnostics with the caller's attribute map, which turns
//     a not-found into an error on id (map the path parameter, e.g. "videoId", to path.Root("id"))
//     and a 400's problems into errors on the filters; the converter; resp.State.Set.
//   - Descriptions: "Reads one <thing> of the workspace by its id." and "Lists the <things> of
//     the workspace ..."; each attribute's MarkdownDescription says what it is, its default and
//     when it is null, and the id of a read names the service's field (`videoId`).
//
// A resource follows webhook_resource.go: the same model and converter as its data sources,
// an attribute map for addAPIErrorDiagnostics, a not-found on Read that removes it from the
// state with a warning, a not-found on Delete that counts as deleted, and import by id.
package provider
