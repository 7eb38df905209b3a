// Package provider is the Terraform side of the video hosting service: schemas, plan
// modifiers, validators, state mapping, diagnostics and import. It knows nothing of HTTP or
// JSON; every call to the service goes through internal/videohost, and everything about the
// user's local files that needs no Terraform (opening, hashing, the records of hashes, WebVTT
// and image checks) is internal/localfile.
//
// # Where each thing lives
//
// The package is flat, one file per kind of object and role, so that a file's name leads to its
// code. A kind is the resource's name without the provider's prefix (video, webhook, live_stream,
// player_theme, upload_token, watermark, video_caption, video_chapter):
//
//   - <kind>_resource.go: the resource's type, its interface assertions, schema, Create, Read,
//     Update, Delete, ImportState and identity.
//   - <kind>_model.go: the kind's models (the state of its data sources, list resource and
//     resource), <kind>DataAttributes and the converters from the client's types. A model that
//     one file alone uses (the configuration of a list data source, a list block, an action or
//     an ephemeral resource) stays in that file.
//   - <kind>_plan.go: ModifyPlan and ValidateConfig, the checks made before any request.
//   - <kind>_writes.go: the kind's writeTarget (with the call that deletes an object by id), the
//     request bodies built from the plan, and its create, update and delete paths through the
//     shared writes. Every request that changes something is sent from a _writes.go file, and
//     every read from a read path (a data source, a list resource, a Read, a plan, an action);
//     writes_rule_test.go names the paths and fails on a call elsewhere. The video's wait for
//     wait_for and its read-back after a write are video_wait.go.
//   - <kind>_data_source.go (one object by id), <kinds>_data_source.go (a list),
//     <kind>_list_resource.go, <kind>_move_state.go, <kind>_ephemeral_resource.go,
//     <kind>_<verb>_action.go, and <name>_function.go for a provider function.
//   - What several kinds share is named for what it is: server.go (NewServer and the wrapper of
//     the framework's server), provider.go and provider_configure.go, provider_data.go
//     (providerData, the Configure of every data source and resource), request_models.go (the
//     model or id a call starts from), managed_resource.go (the pieces of a resource),
//     data_source.go and list_resource.go (the shells), writes.go (creates and deletes settled
//     the same way), identity.go, cleared_attribute.go (the replacement planned when an
//     attribute that the service cannot clear is removed), restapi_move.go, diagnostics.go,
//     validators.go, text.go (the small helpers of messages: plurals, case, sizes),
//     data_attributes.go, list_values.go, file_hash_records.go (where the records of files'
//     SHA-256 are kept: the private state, this process, the cache on disk), image_plan.go and
//     image_writes.go (an image file's plan step and upload), unclosed_tokens.go (the ephemeral
//     tokens deleted after Serve returns, or when Terraform dies: main's lifecycle.go),
//     tflog_logger.go, rate_limit_warning.go, time_values.go, timeouts_block.go (the timeouts
//     block, at least one second), string_set_type.go (a set of strings checked for duplicates in
//     linear time), video_limits.go (a video's title, tags and metadata bounded at plan); the
//     captions and chapters share
//     track_resource.go, track_model.go, track_plan.go, track_writes.go and
//     track_list_resource.go, each kind naming its requests (trackOps) in its own _writes.go. The videohost_video data source's model, with the video's
//     status, is video_data_source_model.go.
//   - A test file is named after the source file it tests (video_plan.go: video_plan_test.go).
//     Shared test helpers are in files named for what they hold (helpers_test.go,
//     protocol_server_test.go, terraform_cli_test.go, track_helpers_test.go,
//     slow_service_test.go, cli_config_test.go, cli_features_test.go,
//     contract_check_test.go, remote_endpoint_test.go), and the tests of the whole
//     provider in files named for what they check (soak_test.go, static_docs_test.go,
//     api_coverage_test.go, local_files_test.go, writes_rule_test.go, registered_names_test.go).
//
// # The template
//
// What every data source, list resource and resource does the same way is written once, in a
// shell that each fills with what sets it apart; a new one copies its neighbours.
//
//   - Models: a kind of object has one model (<kind>_model.go): its state,
//     <thing>DataAttributes() with its computed attributes, the converter <thing>ModelFrom(...)
//     from the client's type, and object(), which builds it as an element of a list (list_values.go
//     says why; add the model to TestObjectsMatchReflection). A resource whose state holds what
//     the service never shows (a live stream's write-only keys; a video's source, clip, watermark,
//     wait_for and timeouts) has a resource model of its own beside it (liveStreamResourceModel,
//     videoResourceModel), which keeps those values from the plan or the prior state and takes the
//     rest from the client's type.
//   - Data sources (data_source.go): New<Thing>DataSource is a newObjectDataSource, which reads
//     one object by its id; New<Things>DataSource a newListDataSource, which lists every page of
//     the objects that its filters select. The shells check that the provider is configured, read
//     the configuration, call the client, turn an error into diagnostics with one attribute map
//     (a not-found becomes an error on id, a 400's problems errors on the filters), convert and
//     set the state. Descriptions: "Reads one <thing> of the workspace by its id." and "Lists
//     the <things> of the workspace ..."; each attribute says what it is, its default and when
//     it is null.
//   - List resources (list_resource.go): a newListResource per managed resource, which streams
//     the client's walk of the list as results for terraform query.
//   - Resources: <thing>_resource.go embeds the pieces of managed_resource.go that it needs:
//     managedBase (its name for the writes and the rules of a refresh, readRemote), deletedByID
//     (the delete), withIDImport (the identity and the import by id) and withPlannedUpdate (an
//     update that sends nothing); the resource's own file has its schema, Create, Read and
//     Update. Creates and deletes go through writes.go,
//     which settles interrupted writes the same way for all.
//   - Files as sources: an attribute that names a local file to upload (a video's source_file)
//     is checked without a request in ModifyPlan (internal/localfile: missing, unreadable, empty,
//     not a regular file, too large; not in ValidateConfig, since terraform validate may run where
//     the files are not), and carries a computed <name>_sha256 taken there; the apply compares
//     the file with it before and after the upload.
//   - Transfers after a create: when a create is followed by a transfer that may be cut short
//     (a video's upload), the object is recorded once createObject returns it, and a transfer
//     that was interrupted or outlasted its retries is a warning, not an error: a computed
//     attribute says what is missing (source_bytes_missing), and ModifyPlan plans it as unknown
//     with a warning, so that the next apply resumes it in place. Only what would record other
//     bytes than the plan's (a file that changed) is an error.
//
// # Serving
//
// NewServer (server.go) is the framework's protocol 6 server with each request's
// context let go when the request returns; the framework alone keeps every one until Ctrl-C.
// main serves it, and the tests' provider factories use it, so that every test runs through it.
package provider
