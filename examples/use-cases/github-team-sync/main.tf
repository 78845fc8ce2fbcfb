# The GitHub team "members": the active Join It members who gave their
# GitHub username, through examples/modules/github-team.

terraform {
  required_version = ">= 1.7"

  required_providers {
    joinit = {
      source  = "joinit-community/joinit"
      version = "~> 0.1"
    }
    github = {
      source  = "integrations/github"
      version = "~> 6.13"
    }
  }
}

# JOINIT_ACCESS_TOKEN (and JOINIT_BASE_URL for another API than Join It's).
provider "joinit" {}

# GITHUB_TOKEN: a token with the organization's Members permission (read
# and write), or a GitHub App's GITHUB_APP_ID, GITHUB_APP_INSTALLATION_ID
# and GITHUB_APP_PEM_FILE; GITHUB_OWNER instead of owner.
provider "github" {
  owner = "acme" # the GitHub organization
}

variable "joinit_organization_id" {
  description = "The Join It organization whose members the team holds: a record of another stops the plan."
  type        = string
}

module "github_team" {
  source = "github.com/joinit-community/terraform-provider-joinit//examples/modules/github-team?ref=v0.1.0"

  team_slug       = "members"
  min_members     = 50
  max_removals    = 0.1
  organization_id = var.joinit_organization_id
}

# Adopts the team's members as they are. Only a root holds imports.
import {
  to = module.github_team.github_team_members.this
  id = "members"
}

# Counts, not lists (what a plan adds and removes is in its diff).
output "members" {
  value = length(module.github_team.planned)
}

output "members_without_username" {
  value = length(module.github_team.members_without_username)
}
