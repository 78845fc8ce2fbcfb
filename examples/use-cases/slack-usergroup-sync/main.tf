# Keeps an existing Slack user group's users equal to the active Join It
# members, looked up by e-mail address, through
# examples/modules/slack-usergroup.
#
# Join It: JOINIT_BASE_URL and JOINIT_ACCESS_TOKEN from the environment.
# Slack: SLACK_TOKEN, a token of a Slack app with the scopes users:read,
# users:read.email, usergroups:read and usergroups:write. A bot token
# (xoxb-) works when the workspace lets everyone manage user groups; else
# the user token (xoxp-) of an owner or admin who may.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    slack = {
      source  = "pablovarela/slack"
      version = "~> 1.2"
    }
  }
}

provider "joinit" {}

provider "slack" {} # SLACK_TOKEN

variable "usergroup_id" {
  description = "The Slack user group the sync keeps, by id (S0123ABCD): it must exist and be enabled."
  type        = string
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the group holds: a record of another stops the plan."
  type        = string
}

module "slack_usergroup" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/slack-usergroup?ref=v0.1.0"

  usergroup_id    = var.usergroup_id
  min_members     = 20
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Adopt the group once; later plans skip this.
import {
  to = module.slack_usergroup.slack_usergroup.this
  id = var.usergroup_id
}

# Counts, not lists.
output "members" {
  value = length(module.slack_usergroup.planned)
}

output "to_add" {
  value = length(module.slack_usergroup.to_add)
}

output "to_remove" {
  value = length(module.slack_usergroup.to_remove)
}
