# A bearer token of the provider's own session, for tools that call the service directly. It is
# ephemeral: Terraform never writes it to the plan or the state.
ephemeral "videohost_access_token" "current" {}

locals {
  # Ephemeral values may flow into locals, provider blocks and write-only arguments, for example
  # the headers of another provider that calls the API.
  authorization_header = "Bearer ${ephemeral.videohost_access_token.current.access_token}"
}
