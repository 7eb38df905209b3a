# A token for the uploads of this run only: made when Terraform opens it, deleted when Terraform
# closes it, never in the plan or the state. The ttl bounds it if Terraform is killed.
ephemeral "videohost_upload_token" "run" {
  ttl = 900
}

locals {
  # Ephemeral values may flow into locals, provider blocks, write-only arguments and
  # provisioners, for example the address a script uploads to.
  upload_url = "https://sandbox.api.video/upload?token=${ephemeral.videohost_upload_token.run.token}"
}
