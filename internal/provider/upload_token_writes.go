package provider

// What the upload token's create and delete send: its writeTarget.

import "github.com/hashicorp/terraform-plugin-framework/path"

// uploadTokenWrites names the upload token for the shared create and delete machinery.
var uploadTokenWrites = writeTarget{kind: "Upload Token", attrs: map[string]path.Path{"ttl": path.Root("ttl")}}
