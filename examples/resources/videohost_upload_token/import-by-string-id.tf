# The token comes from the environment (TF_VAR_upload_token), not from a committed file; the
# import id is its fingerprint, which is not a secret.
variable "upload_token" {
  type      = string
  sensitive = true
}

import {
  to = videohost_upload_token.partner
  id = nonsensitive(substr(sha256(var.upload_token), 0, 16))
}
