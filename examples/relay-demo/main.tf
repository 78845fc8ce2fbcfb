# Configuration behind `make demo-relay`: the sync joinit-relay starts. It
# keeps one entry per active membership in terraform_data (Terraform's
# built-in resource, standing in for an SSO group or a GitHub team), so
# "the member is gone from the applied state" is a fact of the state file.
# The provider block is empty: base_url and access_token come from
# JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN (the demo points them at the
# local sandbox).

terraform {
  required_providers {
    joinit = {
      source  = "registry.terraform.io/joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

provider "joinit" {}

data "joinit_memberships" "active" {
  status = "active"
}

# One entry per active membership, by its _id: an e-mail may belong to
# several memberships, so the id is what a cancellation removes.
resource "terraform_data" "access" {
  input = { for m in data.joinit_memberships.active.memberships : m.id => m.email }
}

output "member_ids" {
  description = "The _id of every membership with access, as applied."
  value       = sort(keys(terraform_data.access.output))
}
