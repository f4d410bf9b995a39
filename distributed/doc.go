// Package distributed evaluates sliced contractions (package slicing) on
// many machines through a NATS server with JetStream.
//
// A sliced plan writes a contraction as the sum over S slices,
//
//	result = Σ_{s=0}^{S-1} contraction of slice s,
//
// where slice s fixes the sliced labels to one combination of values.
// [Contract] (the coordinator) cuts 0..S-1 into ranges, and [Worker]s
// compute the partial sum of each range with slicing.ContractRange; the
// coordinator adds the partial sums with a slicing.Reducer. Addition
// commutes, so ranges may finish in any order and on any worker; the
// result equals the single-engine evaluation up to rounding (the order of
// the additions differs).
//
// # Protocol
//
// Everything goes through JetStream; nothing but the server is shared.
//
//   - The coordinator stores the plan (JSON) and one object per operand
//     (.npy) in the object store [Bucket], under "<job>/", and publishes one
//     [Task] per range on the work-queue stream [TaskStream] (subject
//     [TaskSubjectPrefix]+job). A task names objects; it never carries
//     tensor data.
//   - Workers share the durable pull consumer [WorkerConsumer] with
//     explicit acks, and take one task at a time. A worker reads the job's
//     plan and operands once (it keeps the last few jobs), computes, stores
//     the partial sum as "<job>/partial-<lo>-<hi>.npy", publishes a [Result]
//     with status [StatusDone] on [ResultStream] (subject
//     [ResultSubjectPrefix]+job), and only then acks the task.
//   - The coordinator reads the results of its job as they arrive, sums
//     each range once, deletes the partial objects, and when every slice is
//     summed (or on failure) removes the job's objects and messages.
//
// # Failures
//
//   - A worker that dies (or loses the server) stops acking: after
//     AckWait without an ack or a heartbeat the server gives its task to
//     another worker. While a task is computed the worker sends a heartbeat
//     every second (or every AckWait/4 if shorter), so AckWait bounds the
//     time lost to a dead worker, not the length of a task. A worker
//     stopped through its context hands its task back at once (a negative
//     ack).
//   - A worker that dies after it announced a result but before its ack
//     makes the task run twice: the coordinator sums a range once and
//     counts the second result in [Progress.Duplicates].
//   - A task that fails for good (a missing object, operands that do not
//     fit the plan, a failing contraction) is reported with status
//     [StatusFailed] and terminated, not redelivered; the coordinator
//     returns it as a [*TaskError].
//   - A task delivered WorkerOptions.MaxDeliver times without a result
//     (workers that keep dying on it) is announced by the server, and the
//     coordinator returns an error naming its slices.
//   - [Connect] makes one bounded attempt, so an unreachable server is an
//     error within the timeout, not a retry loop.
//
// docs/distributed.md shows how to run a server, a coordinator and
// workers on several machines and on Kubernetes (commands tenferro
// contract and tenferro worker).
package distributed
