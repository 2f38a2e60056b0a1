locals {
  # Exactly the calls of the clusterTasks provider (provider/clustertasks/SdkEcsApi.java), each only when the
  # configuration makes the provider call it. ShippedTerraformTest compares this list with the provider's calls.
  provider_actions = concat(
    [
      "ecs:ListTasks",
      "ecs:DescribeTasks",
      "ecs:DescribeTaskDefinition",
      "ecs:DescribeContainerInstances",
      "ec2:DescribeInstances",
    ],
    var.auto_discover_clusters ? ["ecs:ListClusters"] : [],
    var.ecs_anywhere ? ["ssm:DescribeInstanceInformation"] : [],
  )
  token_in_ssm = var.consul_token_arn != null && can(regex("^arn:[^:]+:ssm:", var.consul_token_arn))
}

data "aws_iam_policy_document" "assume_ecs_tasks" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ecs-tasks.amazonaws.com"]
    }
  }
}

# The task role: the proxy's own AWS identity, read-only.
resource "aws_iam_role" "task" {
  name               = "${var.name}-task"
  assume_role_policy = data.aws_iam_policy_document.assume_ecs_tasks.json
  tags               = var.tags
}

data "aws_iam_policy_document" "discovery" {
  statement {
    sid     = "ClusterTasksDiscovery"
    actions = local.provider_actions
    # Read-only List/Describe calls. ec2:DescribeInstances and ssm:DescribeInstanceInformation support no
    # resource-level permissions; the ECS calls could be narrowed with the ecs:cluster condition key, which this
    # module does not do (auto_discover_clusters would need every cluster anyway).
    resources = ["*"]
  }
}

resource "aws_iam_role_policy" "discovery" {
  name   = "clustertasks-discovery"
  role   = aws_iam_role.task.id
  policy = data.aws_iam_policy_document.discovery.json
}

# The task execution role: used by ECS itself to pull the image, write logs and inject the Consul token.
resource "aws_iam_role" "execution" {
  name               = "${var.name}-task-execution"
  assume_role_policy = data.aws_iam_policy_document.assume_ecs_tasks.json
  tags               = var.tags
}

resource "aws_iam_role_policy_attachment" "execution" {
  role       = aws_iam_role.execution.name
  policy_arn = "arn:aws:iam::aws:policy/service-role/AmazonECSTaskExecutionRolePolicy"
}

data "aws_iam_policy_document" "consul_token" {
  count = var.consul_token_arn == null ? 0 : 1
  statement {
    sid       = "ReadConsulToken"
    actions   = local.token_in_ssm ? ["ssm:GetParameters"] : ["secretsmanager:GetSecretValue"]
    resources = [var.consul_token_arn]
  }
}

resource "aws_iam_role_policy" "consul_token" {
  count  = var.consul_token_arn == null ? 0 : 1
  name   = "consul-token"
  role   = aws_iam_role.execution.id
  policy = data.aws_iam_policy_document.consul_token[0].json
}
