% ar_reference_run.m: runs the A&R authors' code (github franrruiz/augment-reduce, checked out at
% AR_REF, its mex files built) on one .mat file (bench/src/main/python/ar_reference.py tomat) with
% the settings given, under Octave 7 with the statistics package.
% Set these variables before calling (octave --eval), e.g.
%   octave-cli --no-gui --eval "datafile='/abs/data.mat'; method='probit_a&r'; B=100; ns=5; maxIter=3000; step_eta=0.02; seed=1; outdir='/abs/out'; run('/abs/largecat/bench/src/main/octave/ar_reference_run.m')" with AR_REF=/path/to/augment-reduce in the environment
% (absolute paths: run() changes to this script's directory)
% Prints: the bound (llh part, no prior: (N/B)*sum over the batch) every 100 iterations and the
% mean of the last 100; the reference's own test llh / accuracy; elapsed seconds of training+prediction.
% Writes OUTDIR/W.txt (D x K), OUTDIR/b.txt (1 x K), OUTDIR/llh.txt (llh per iteration).
ref = getenv('AR_REF');
addpath([ref '/src']); addpath([ref '/src/aux']); addpath([ref '/src/infer']);
warning('off', 'all'); pkg load statistics;
load(datafile);
param.method_name = method;
param.flag_mexFile = 1;
param.s2prior = inf;
param.step_eta = step_eta;
param.flag_imp_sampling = 0;
param.computePredTrain = 0;
param.maxIter = maxIter;
param.B = B;
param.ns = ns;
param.output_path = outdir;
if(~isfolder(outdir)) mkdir(outdir); end
rand('state', seed); randn('state', seed);
t0 = tic;
run_classification(data, param);
elapsed = toc(t0);
nClasses = ns;
r = load([outdir '/results_' method '_nClasses' num2str(nClasses) '.mat']);
llh = r.pvar.llh_all;
for it = 100:100:maxIter
  printf('iter %d bound %.1f\n', it, llh(it));
end
printf('bound_last100_mean %.1f\n', mean(llh(maxIter-99:maxIter)));
printf('test_llh %.4f\ntest_acc %.4f\nseconds %.2f\n', r.pred.test.llh, r.pred.test.acc, elapsed);
dlmwrite([outdir '/W.txt'], r.pvar.weights.val, 'precision', '%.9g');
dlmwrite([outdir '/b.txt'], r.pvar.biases.val, 'precision', '%.9g');
dlmwrite([outdir '/llh.txt'], llh(:), 'precision', '%.6f');
