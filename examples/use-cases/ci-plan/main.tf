# A configuration planned on a schedule in CI. The read of active members
# carries a postcondition: when the API returns fewer active members than a
# floor (min_active_members), `terraform plan` fails, and so does the CI job,
# instead of planning to remove people from every group.
#
# The provider reads JOINIT_BASE_URL, JOINIT_ACCESS_TOKEN and
# JOINIT_ORGANIZATION_ID from the environment (the workflow sets them from
# variables and a secret); strict_filters makes a filter that keeps nothing
# an error, since warnings scroll by in CI logs.
#
# The outputs are counts and a hash, never addresses: a plan log holds
# every output, and a scheduled job's logs are kept (public, for a public
# repository).

terraform {
  required_version = ">= 1.5"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
  }
}

provider "joinit" {
  strict_filters = true
}

variable "min_active_members" {
  description = "Fewest active members a plan may read. A read below it stops the plan instead of removing people from the groups: set it a little under your usual count."
  type        = number
  default     = 1

  validation {
    condition     = var.min_active_members >= 1
    error_message = "Keep the floor at 1 or more: an empty list would empty every group."
  }
}

data "joinit_memberships" "active" {
  status          = "active"
  include_records = false

  lifecycle {
    postcondition {
      condition     = length(self.ids) >= var.min_active_members
      error_message = "Read ${length(self.ids)} active memberships, fewer than min_active_members (${var.min_active_members}): nothing was planned. Check the token, the organization and the filters, or lower min_active_members if the organization really shrank."
    }
  }
}

# What a sync module would receive is data.joinit_memberships.active.emails;
# pass it to the module. The outputs say how many, and whether the list
# changed, without putting an address in the log.
output "active_member_count" {
  description = "How many active memberships were read."
  value       = length(data.joinit_memberships.active.ids)
}

output "active_member_emails_sha256" {
  description = "A hash of the sorted e-mail addresses: it changes when the list does."
  value       = sha256(join("\n", data.joinit_memberships.active.emails))
}
