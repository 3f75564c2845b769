/** Parsing of untrusted files off the serving thread: the face of untrusted/ (pool.ts says why). */
export {
  DEFAULT_FILE_JOB_LIMITS,
  FileJobs,
  FileRefused,
  jobRef,
  type FileJobLimits,
  type JobOutcome,
  type JobRef,
} from './pool.ts';
export { fileJob, jobModule } from './job.ts';
