# A configuration planned on a schedule in CI. The read of active members
# carries a postcondition: when the API returns something no sync should act
# on (here, no active member at all), `terraform plan` fails, and so does the
# CI job, instead of planning to empty every group.
#
# The provider reads JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the
# environment (the workflow sets them from a variable and a secret).

terraform {
  required_version = ">= 1.5"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

provider "joinit" {}

data "joinit_memberships" "active" {
  status          = 100
  include_records = false

  lifecycle {
    postcondition {
      condition     = length(self.ids) > 0
      error_message = "Join It returned no active memberships: refusing to plan groups without members. Check the token's organization and the API."
    }
  }
}

output "active_member_emails" {
  description = "What a sync module would receive."
  value       = data.joinit_memberships.active.emails
}
