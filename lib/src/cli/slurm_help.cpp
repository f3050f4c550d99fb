// The --help and --usage texts of Slurm 22.05's tools, byte for byte (their
// tabs and trailing spaces included): scripts and Slurm's test suite read
// them. An option they list that stint lacks is refused when used, with what
// to use instead; each tool's man page says what differs.

#include "cli/slurm_help.hpp"

#include "cli/scontrol_help.hpp"

namespace stint::cli {
namespace {

struct ToolTexts {
  std::string_view tool;
  std::string_view help;
  std::string_view usage;  ///< empty: the tool's own short usage
};

constexpr std::string_view k_sinfo_help = R"TXT(Usage: sinfo [OPTIONS]
  -a, --all                  show all partitions (including hidden and those
			     not accessible)
  -d, --dead                 show only non-responding nodes
  -e, --exact                group nodes only on exact match of configuration
      --federation           Report federated information if a member of one
  -h, --noheader             no headers on output
  --hide                     do not show hidden or non-accessible partitions
  -i, --iterate=seconds      specify an iteration period
      --json                 Produce JSON output
      --local                show only local cluster in a federation.
                             Overrides --federation.
  -l, --long                 long output - displays more information
  -M, --clusters=names       clusters to issue commands to. Implies --local.
                             NOTE: SlurmDBD must be up.
  -n, --nodes=NODES          report on specific node(s)
  --noconvert                don't convert units from their original type
			     (e.g. 2048M won't be converted to 2G).
  -N, --Node                 Node-centric format
  -o, --format=format        format specification
  -O, --Format=format        long format specification
  -p, --partition=PARTITION  report on specific partition
  -r, --responding           report only responding nodes
  -R, --list-reasons         list reason nodes are down or drained
  -s, --summarize            report state summary only
  -S, --sort=fields          comma separated list of fields to sort on
  -t, --states=node_state    specify the what states of nodes to view
  -T, --reservation          show only reservation information
  -v, --verbose              verbosity level
  -V, --version              output version information and exit
      --yaml                 Produce YAML output

Help options:
  --help                     show this help message
  --usage                    display brief usage message
)TXT";
constexpr std::string_view k_sinfo_usage =
    R"TXT(Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]
             [-S fields] [-o format] [-O Format] [--federation] [--local]
)TXT";

constexpr std::string_view k_squeue_help = R"TXT(Usage: squeue [OPTIONS]
  -A, --account=account(s)        comma separated list of accounts
				  to view, default is all accounts
  -a, --all                       display jobs in hidden partitions
      --array-unique              display one unique pending job array
                                  element per line
      --federation                Report federated information if a member
                                  of one
  -h, --noheader                  no headers on output
      --hide                      do not display jobs in hidden partitions
  -i, --iterate=seconds           specify an interation period
  -j, --job=job(s)                comma separated list of jobs IDs
                                  to view, default is all
      --json                      Produce JSON output
      --local                     Report information only about jobs on the
                                  local cluster. Overrides --federation.
  -l, --long                      long report
  -L, --licenses=(license names)  comma separated list of license names to view
  -M, --clusters=cluster_name     cluster to issue commands to.  Default is
                                  current cluster.  cluster with no name will
                                  reset to default. Implies --local.
  -n, --name=job_name(s)          comma separated list of job names to view
      --noconvert                 don't convert units from their original type
                                  (e.g. 2048M won't be converted to 2G).
  -o, --format=format             format specification
  -O, --Format=format             format specification
  -p, --partition=partition(s)    comma separated list of partitions
				  to view, default is all partitions
  -q, --qos=qos(s)                comma separated list of qos's
				  to view, default is all qos's
  -R, --reservation=name          reservation to view, default is all
  -r, --array                     display one job array element per line
      --sibling                   Report information about all sibling jobs
                                  on a federated cluster. Implies --federation.
  -s, --step=step(s)              comma separated list of job steps
				  to view, default is all
  -S, --sort=fields               comma separated list of fields to sort on
      --start                     print expected start times of pending jobs
  -t, --states=states             comma separated list of states to view,
				  default is pending and running,
				  '--states=all' reports all states
  -u, --user=user_name(s)         comma separated list of users to view
      --name=job_name(s)          comma separated list of job names to view
  -v, --verbose                   verbosity level
  -V, --version                   output version information and exit
  -w, --nodelist=hostlist         list of nodes to view, default is 
				  all nodes
      --yaml                      Produce YAML output

Help options:
  --help                          show this help message
  --usage                         display a brief summary of squeue options
)TXT";
constexpr std::string_view k_squeue_usage =
    R"TXT(Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]
              [-n name] [-o format] [-p partitions] [--qos qos]
              [--reservation reservation] [--sort fields] [--start]
              [--step step_id] [-t states] [-u user_name] [--usage]
              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
	      [-ahjlrsv]
)TXT";

constexpr std::string_view k_scancel_help =
    R"TXT(Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]
  -A, --account=account           act only on jobs charging this account
  -b, --batch                     signal batch shell for specified job
  -f, --full                      signal batch shell and all steps for specified job
  -H, --hurry                     avoid burst buffer stage out
  -i, --interactive               require response from user for each job
  -M, --clusters                  clusters to issue commands to.
                                  NOTE: SlurmDBD must be up.
  -n, --name=job_name             act only on jobs with this name
  -p, --partition=partition       act only on jobs in this partition
  -Q, --quiet                     disable warnings
  -q, --qos=qos                   act only on jobs with this quality of service
  -R, --reservation=reservation   act only on jobs with this reservation
      --sibling=cluster_name      remove an active sibling job from a federated job
  -s, --signal=name | integer     signal to send to job, default is SIGKILL
  -t, --state=states              act only on jobs in this state.  Valid job
                                  states are PENDING, RUNNING and SUSPENDED
  -u, --user=user_name            act only on jobs of this user
  -V, --version                   output version information and exit
  -v, --verbose                   verbosity level
  -w, --nodelist                  act only on jobs on these nodes
      --wckey=wckey               act only on jobs with this workload
                                  charactization key

Help options:
  --help                          show this help message
  --usage                         display brief usage message
)TXT";
constexpr std::string_view k_scancel_usage =
    R"TXT(Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]
               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]
               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]
               [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]
               [job_id[_array_id][.step_id]]
)TXT";

constexpr std::string_view k_sacct_help =
    R"TXT(sacct [<OPTION>]                                                            
     Valid <OPTION> values are:                                              
     -a, --allusers:                                                        
	           Display jobs for all users. By default, only the         
                   current user's jobs are displayed.  If ran by user root  
                   this is the default.                                     
     -A, --accounts:                                                        
	           Use this comma separated list of accounts to select jobs 
                   to display.  By default, all accounts are selected.      
     -b, --brief:                                                           
	           Equivalent to '--format=jobstep,state,error'.            
     -B, --batch-script:                                                    
	           Print batch script of job.                               
                   NOTE: AccountingStoreFlags=job_script is required for this
                   NOTE: Requesting specific job(s) with '-j' is required   
                         for this.                                          
     -c, --completion: Use job completion instead of accounting data.       
         --delimiter:                                                       
	           ASCII characters used to separate the fields when        
	           specifying the  -p  or  -P options. The default delimiter
	           is a '|'. This options is ignored if -p or -P options    
	           are not specified.                                       
     -D, --duplicates:                                                      
	           If Slurm job ids are reset, some job numbers may         
	           appear more than once referring to different jobs.       
	           Without this option only the most recent jobs will be    
                   displayed.                                               
     -e, --helpformat:                                                      
	           Print a list of fields that can be specified with the    
	           '--format' option                                        
     -E, --endtime:                                                         
                   Select jobs eligible before this time.  If states are    
                   given with the -s option return jobs in this state before
                   this period.                                             
         --env-vars:                                                        
	           Print the environment to launch the batch script of job. 
                   NOTE: AccountingStoreFlags=job_env is required for this  
                   NOTE: Requesting specific job(s) with '-j' is required   
                         for this.                                          
         --federation: Report jobs from federation if a member of a one.    
     -f, --file=file:                                                       
	           Read data from the specified file, rather than Slurm's   
                   current accounting log file. (Only appliciable when      
                   running the jobcomp/filetxt plugin.)                     
     -g, --gid, --group:                                                    
	           Use this comma separated list of gids or group names     
                   to select jobs to display.  By default, all groups are   
                   selected.                                                
     -h, --help:   Print this description of use.                           
     -i, --nnodes=N:                                                        
                   Return jobs which ran on this many nodes (N = min[-max]) 
     -I, --ncpus=N:                                                         
                   Return jobs which ran on this many cpus (N = min[-max])  
     -j, --jobs:                                                            
	           Format is <job(.step)>. Display information about this   
                   job or comma-separated list of jobs. The default is all  
                   jobs. Adding .step will display the specific job step of 
                   that job. (A step id of 'batch' will display the         
                   information about the batch step.)                       
     --json:                                                                
                   Produce JSON output                                      
     -k, --timelimit-min:                                                   
                   Only send data about jobs with this timelimit.           
                   If used with timelimit_max this will be the minimum      
                   timelimit of the range.  Default is no restriction.      
     -K, --timelimit-max:                                                   
                   Ignored by itself, but if timelimit_min is set this will 
                   be the maximum timelimit of the range.  Default is no    
                   restriction.                                             
         --local   Report information only about jobs on the local cluster. 
	           Overrides --federation.                                  
     -l, --long:                                                            
	           Equivalent to specifying                                 
	           '--format=jobid,jobidraw,jobname,partition,maxvmsize,    
                             maxvmsizenode,maxvmsizetask,avevmsize,maxrss,  
                             maxrssnode,maxrsstask,averss,maxpages,         
                             maxpagesnode,maxpagestask,avepages,mincpu,     
                             mincpunode,mincputask,avecpu,ntasks,alloccpus, 
                             elapsed,state,exitcode,avecpufreq,reqcpufreqmin,
                             reqcpufreqmax,reqcpufreqgov,reqmem,            
                             consumedenergy,maxdiskread,maxdiskreadnode,    
                             maxdiskreadtask,avediskread,maxdiskwrite,      
                             maxdiskwritenode,maxdiskwritetask,avediskwrite,
                             reqtres,alloctres,                             
                             tresusageinave,tresusageinmax,tresusageinmaxn, 
                             tresusageinmaxt,tresusageinmin,tresusageinminn,
                             tresusageinmint,tresusageintot,tresusageoutmax,
                             tresusageoutmaxn,tresusageoutmaxt,             
                             tresusageoutave,tresusageouttot                
     -L, --allclusters:                                                     
	           Display jobs ran on all clusters. By default, only jobs  
                   ran on the cluster from where sacct is called are        
                   displayed.                                               
     -M, --clusters:                                                        
                   Only send data about these clusters. Use "all" for all 
                   clusters.
     -n, --noheader:                                                        
	           No header will be added to the beginning of output.      
                   The default is to print a header.                        
     --noconvert:                                                           
		   Don't convert units from their original type             
		   (e.g. 2048M won't be converted to 2G).                   
     -N, --nodelist:                                                        
                   Display jobs that ran on any of these nodes,             
                   can be one or more using a ranged string.                
     --name:                                                                
                   Display jobs that have any of these name(s).             
     -o, --format:                                                          
	           Comma separated list of fields. (use "--helpformat"    
                   for a list of available fields).                         
     -p, --parsable: output will be '|' delimited with a '|' at the end     
     -P, --parsable2: output will be '|' delimited without a '|' at the end 
     -q, --qos:                                                             
                   Only send data about jobs using these qos.  Default is all.
     -r, --partition:                                                       
	           Comma separated list of partitions to select jobs and    
                   job steps from. The default is all partitions.           
     -s, --state:                                                           
	           Select jobs based on their current state or the state    
                   they were in during the time period given: running (r),  
                   completed (cd), failed (f), timeout (to), resizing (rs), 
                   deadline (dl) and node_fail (nf).                        
     -S, --starttime:                                                       
                   Select jobs eligible after this time.  Default is        
                   00:00:00 of the current day, unless '-s' is set then     
                   the default is 'now'.                                    
     -T, --truncate:                                                        
                   Truncate time.  So if a job started before --starttime   
                   the start time would be truncated to --starttime.        
                   The same for end time and --endtime.                     
     -u, --uid, --user:                                                     
	           Use this comma separated list of uids or user names      
                   to select jobs to display.  By default, the running      
                   user's uid is used.                                      
     --units=[KMGTP]:                                                       
                   Display values in specified unit type. Takes precedence  
		   over --noconvert option.                                 
     --usage:      Display brief usage message.                             
     -v, --verbose:                                                         
	           Primarily for debugging purposes, report the state of    
                   various variables during processing.                     
     -V, --version: Print version.                                          
     -W, --wckeys:                                                          
                   Only send data about these wckeys.  Default is all.      
     --whole-hetjob[=yes|no]:                                               
		   If set to 'yes' (or no argument), then information about 
		   all the heterogeneous components will be retrieved. If   
		   set to 'no' only the specific filtered components will   
		   be retrieved. The default behavior without this option is
		   that all components are retrieved only if filtering the  
		   leader component with --jobs.                            
     -x, --associations:                                                    
                   Only send data about these association id.  Default is all.
     -X, --allocations:                                                     
	           Only show statistics relevant to the job allocation      
	           itself, not taking steps into consideration.             
     --yaml:                                                                
                   Produce YAML output                                      
	                                                                    
     Note, valid start/end time formats are...                              
	           HH:MM[:SS] [AM|PM]                                       
	           MMDD[YY] or MM/DD[/YY] or MM.DD[.YY]                     
	           MM/DD[/YY]-HH:MM[:SS]                                    
	           YYYY-MM-DD[THH:MM[:SS]]                                  
	           now[{+|-}count[seconds(default)|minutes|hours|days|weeks]]

)TXT";
constexpr std::string_view k_sacct_usage = R"TXT(Usage: sacct [options]
	Use --help for help
)TXT";

constexpr std::string_view k_sprio_help = R"TXT(Usage: sprio [OPTIONS]
      --federation                display jobs in federation if a member of one
  -h, --noheader                  no headers on output
  -j, --jobs                      comma separated list of jobs
                                  to view, default is all
      --local                     display jobs on local cluster only
  -l, --long                      long report
  -M, --cluster=cluster_name      cluster to issue commands to.  Default is
                                  current cluster.  cluster with no name will
                                  reset to default.
                                  NOTE: SlurmDBD must be up.
  -n, --norm                      display normalized values
  -o, --format=format             format specification
      --sibling                   display job records separately for each federation cluster
  -p, --partition=partition_name  comma separated list of partitions
  -u, --user=user_name            comma separated list of users to view
  -v, --verbose                   verbosity level
  -V, --version                   output version information and exit
  -w, --weights                   show the weights for each priority factor

Help options:
  --help                          show this help message
  --usage                         display a brief summary of sprio options
)TXT";
constexpr std::string_view k_sprio_usage =
    R"TXT(Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]
)TXT";

constexpr std::string_view k_sshare_help =
    R"TXT(Usage:  sshare [OPTION]                                                    
  Valid OPTIONs are:                                                       
    -a or --all            list all users                                  
    -A or --accounts=      display specific accounts (comma separated list)
    -e or --helpformat     Print a list of fields that can be specified    
                           with the '--format' option                      
    -l or --long           include normalized usage in output              
    -m or --partition      print the partition part of the association     
    -M or --cluster=names  clusters to issue commands to.                  
                           NOTE: SlurmDBD must be up.                      
    -n or --noheader       omit header from output                         
    -o or --format=        Comma separated list of fields (use             
                           "--helpformat" for a list of available fields).
    -p or --parsable       '|' delimited output with a trailing '|'        
    -P or --parsable2      '|' delimited output without a trailing '|'     
    -u or --users=         display specific users (comma separated list)   
    -U or --Users          display only user information                   
    -v or --verbose        display more information                        
    -V or --version        display tool version number                     
          --help           display this usage description                  
          --usage          display this usage description                  
                                                                           

)TXT";

constexpr std::string_view k_sacctmgr_help =
    R"TXT(sacctmgr [<OPTION>] [<COMMAND>]                                            
    Valid <OPTION> values are:                                             
     -h or --help: equivalent to "help" command                          
     -i or --immediate: commit changes immediately                         
     -n or --noheader: no header will be added to the beginning of output  
     -o or --oneliner: equivalent to "oneliner" command                  
     -p or --parsable: output will be '|' delimited with a '|' at the end  
     -P or --parsable2: output will be '|' delimited without a '|' at the end
     -Q or --quiet: equivalent to "quiet" command                        
     -r or --readonly: equivalent to "readonly" command                  
     -s or --associations: equivalent to "associations" command          
     -v or --verbose: equivalent to "verbose" command                    
     -V or --version: equivalent to "version" command                    
                                                                           
  <keyword> may be omitted from the execute line and sacctmgr will execute 
  in interactive mode. It will process commands as entered until explicitly
  terminated.                                                              
                                                                           
  Valid <COMMAND> values are:                                              
     add <ENTITY> <SPECS>     add entity                                   
     archive <DUMP/LOAD> <SPECS>                                           
                              Archive past jobs and/or steps, or load them 
                              back into the databse.                       
     associations             when using show/list will list the           
                              associations associated with the entity.     
     clear stats              clear server statistics                      
     delete <ENTITY> <SPECS>  delete the specified entity(s)               
     dump <CLUSTER> [File=<FILENAME>]                                      
                              dump database information of the             
                              specified cluster to the flat file.          
                              Will default to clustername.cfg if no file   
                              is given.                                    
     exit                     terminate sacctmgr                           
     help                     print this description of use.               
     list <ENTITY> [<SPECS>]  display info of identified entity, default   
                              is display all.                              
     load <FILE> [<SPECS>]    read in the file to update the database      
                              with the file contents. <SPECS> here consist 
                              of 'cluster=', and 'clean'.  The 'cluster='  
                              will override the cluster name given in the  
                              file.  The 'clean' option will remove what is
                              already in the system for this cluster and   
                              replace it with the file.  If the clean option
                              is not given only new additions or           
                              modifications will be done, no deletions.    
     modify <ENTITY> <SPECS>  modify entity                                
     oneliner                 report output one record per line.           
     parsable                 output will be | delimited with an ending '|'
     parsable2                output will be | delimited without an ending '|'
     quiet                    print no messages other than error messages. 
     quit                     terminate this command.                      
     readonly                 makes it so no modification can happen.      
     reconfigure              reread the slurmdbd.conf on the DBD.         
     shutdown                 shutdown the server.                         
     show                     same as list                                 
     verbose                  enable detailed logging.                     
     version                  display tool version number.                 
     !!                       Repeat the last command entered.             
                                                                           
  <ENTITY> may be "account", "association", "cluster",               
                  "configuration", "coordinator", "event",           
                  "federation", "job", "problem", "qos",           
                  "resource", "reservation", "runawayjobs", "stats"
                  "transaction", "tres", "user" or "wckey"         
                                                                           
  <SPECS> are different for each command entity pair.                      
       list account       - Clusters=, Descriptions=, Format=,             
                            Names=, Organizations=, Parents=, WithAssoc,   
                            WithDeleted, WithCoordinators, WithRawQOS,     
                            and WOPLimits                                  
       add account        - Clusters=, DefaultQOS=, Description=, Fairshare=,
                            GrpTRESMins=, GrpTRES=, GrpJobs=, GrpMemory=,   
                            GrpNodes=, GrpSubmitJob=, GrpWall=, MaxTRESMins=,
                            MaxTRES=, MaxJobs=, MaxNodes=, MaxSubmitJobs=, 
                            MaxWall=, Names=, Organization=, Parent=,      
                            Priority= and QosLevel=                        
       modify account     - (set options) DefaultQOS=, Description=,       
                            Fairshare=, GrpTRESMins=, GrpTRESRunMins=,       
                            GrpTRES=, GrpJobs=, GrpMemory=, GrpNodes=,     
                            GrpSubmitJob=, GrpWall=, MaxTRESMins=, MaxTRES=,
                            MaxJobs=, MaxNodes=, MaxSubmitJobs=, MaxWall=, 
                            Names=, Organization=, Parent=, and QosLevel=  
                            RawUsage= (with admin privileges only)         
                            (where options) Clusters=, DefaultQOS=,        
                            Descriptions=, Names=, Organizations=,         
                            Parent=,Priority= and QosLevel=                
       delete account     - Clusters=, DefaultQOS=, Descriptions=, Names=, 
                            Organizations=, and Parents=                   
                                                                           
       list associations  - Accounts=, Clusters=, Format=, ID=, OnlyDefaults,
                            Partitions=, Parent=, Tree, Users=,            
                            WithSubAccounts, WithDeleted, WOLimits,        
                            WOPInfo, and WOPLimits                         
                                                                           
       list cluster       - Classification=, DefaultQOS=, Federation=,     
                            Flags=, Format=, Names=, RPC= WithFed and      
                            WOLimits                                       
       add cluster        - DefaultQOS=, Fairshare=, Federation=, FedState=,
                            GrpTRES=, GrpJobs=, GrpMemory=, GrpNodes=,     
                            GrpSubmitJob=, MaxTRESMins=, MaxJobs=,         
                            MaxNodes=, MaxSubmitJobs=, MaxWall=, Name=,    
                            QosLevel= and Weight=                          
       modify cluster     - (set options) DefaultQOS=, Fairshare=,         
                            Federation=, FedState=, GrpTRES=, GrpJobs=,    
                            GrpMemory=, GrpNodes=, GrpSubmitJob=,          
                            MaxTRESMins=, MaxJobs=, MaxNodes=,             
                            MaxSubmitJobs=, MaxWall=, QosLevel= and Weight=
                            (where options) Classification=, Federation=,  
                            Flags=, and Names=                             
       delete cluster     - Classification=, DefaultQOS=, Flags=, and Names=
                                                                           
       add coordinator    - Accounts=, and Names=                          
       delete coordinator - Accounts=, and Names=                          
                                                                           
       list events        - All_Clusters, All_Time, Clusters=, CondFlags=, 
                            End=, Events=, Format=, MaxCPUs=, MinCPUs=,    
                            Nodes=, Reason=, Start=, States=, and User=    
                                                                           
       list federation    - Names=, Format= and Tree                       
       add federation     - Flags=, Clusters= and Name=                    
       modify federation  - (set options) Clusters= and Flags=             
                            (where options) Names=                         
       delete federation  - Names=                                         
                                                                           
       modify job         - (set options) DerivedExitCode=, Comment=,      
                            NewWCKey=                                      
                            (where options) JobID=, Cluster=, EndTime=,    
                            StartTime=, WCKey=, User=                      
                                                                           
       list qos           - Descriptions=, Format=, Id=, Names=,           
                            PreemptMode=, and WithDeleted                  
       add qos            - Description=, Flags=, GraceTime=, GrpJobs=,    
                            GrpSubmitJob=, GrpTRES=, GrpTRESMins=, GrpWall=,
                            MaxJobs=, MaxSubmitJobsPerUser=, MaxTRESMins=, 
                            MaxTRESPerJob=, MaxTRESPerNode=, MaxTRESPerUser=,
                            MaxWall=, Names=, Preempt=, PreemptMode=,      
                            Priority=, UsageFactor=, and UsageThreshold=   
       modify qos         - (set options) Description=, Flags=, GraceTime=,
                            GrpJobs=, GrpSubmitJob=, GrpTRES=, GrpTRESMins=,
                            GrpWall=,
                            MaxJobs=, MaxSubmitJobsPerUser=, MaxTRESMins=, 
                            MaxTRESPerJob=, MaxTRESPerNode=, MaxTRESPerUser=,
                            MaxWall=, Names=, Preempt=, PreemptMode=,      
                            Priority=, RawUsage= (admin only),             
                            UsageFactor=, and UsageThreshold=              
                            (where options) Descriptions=, ID=, Names=     
                            and PreemptMode=                               
       delete qos         - Descriptions=, ID=, Names=, and PreemptMode=   
                                                                           
       list resource      - Clusters=, Descriptions=, Flags=, Format=, Ids=,
                            Names=, PercentAllowed=, ServerType=, Servers=,
                            and WithClusters                               
       add resource       - Clusters=, Count=, Descriptions=, Flags=,      
                            ServerType=, Names=, PercentAllowed=, Server=, 
                            and Type=                                      
       modify resource    - (set options) Count=, Flags=, Manager=,        
                            PercentAllowed=,                               
                            (where options) Clusters=, Names=, Servers=,   
       delete resource    - Clusters=, Names=                              
                                                                           
       list reservation   - Clusters=, End=, ID=, Names=, Nodes=, Start=   
                                                                           
       list runawayjobs   - Cluster=, Format=                              
                                                                           
       clear stats                                                         
       list stats                                                          
                                                                           
       list transactions  - Accounts=, Action=, Actor=, Clusters=, End=,   
                            Format=, ID=, Start=, User=, and WithAssoc     
                                                                           
       list tres          - ID=, Name=, Type=, WithDeleted                 
                                                                           
       list user          - AdminLevel=, DefaultAccount=,                  
                            DefaultWCKey=, Format=, Names=,                
                            QosLevel=, WithAssoc, WithCoordinators,        
                            WithDeleted, WithRawQOS, and WOPLimits         
       add user           - Accounts=, AdminLevel=, Clusters=,             
                            DefaultAccount=, DefaultQOS=, DefaultWCKey=,   
                            Fairshare=, MaxTRESMins=, MaxTRES=,            
                            MaxJobs=, MaxNodes=, MaxSubmitJobs=, MaxWall=, 
                            Names=, Partitions=, Priority= and QosLevel=   
       modify user        - (set options) AdminLevel=, DefaultAccount=,    
                            DefaultQOS=, DefaultWCKey=, Fairshare=,        
                            MaxTRESMins=, MaxTRES=, MaxJobs=, MaxNodes=,   
                            MaxSubmitJobs=, MaxWall=, NewName=,            
                            and QosLevel=,                                 
                            RawUsage= (with admin privileges only)         
                            (where options) Accounts=, AdminLevel=,        
                            Clusters=, DefaultAccount=, Names=,            
                            Partitions=, Priority= and QosLevel=           
       delete user        - Accounts=, AdminLevel=, Clusters=,             
                            DefaultAccount=, DefaultWCKey=, and Names=     
                                                                           
       list wckey         - Clusters=, End=, Format=, ID=, Names=,         
                            Start=, User=, and WithDeleted                 
                                                                           
       archive dump       - Directory=, Events, Jobs,                      
                            PurgeEventAfter=, PurgeJobAfter=,              
                            PurgeStepAfter=, PurgeSuspendAfter=,           
                            Script=, Steps, and Suspend                    
                                                                           
       archive load       - File=, or Insert=                              
                                                                           
  Format options are different for listing each entity pair.               
                                                                           
  One can get an number of characters by following the field option with   
  a %NUMBER option.  i.e. format=name%30 will print 30 chars of field name.
                                                                           
       Account            - Account, Coordinators, Description, Organization
                                                                           
       Association        - Account, Cluster, DefaultQOS, Fairshare,       
                            GrpTRESMins, GrpTRESRunMins, GrpTRES, GrpJobs, 
                            GrpMemory, GrpNodes, GrpSubmitJob, GrpWall,    
                            ID, LFT, MaxTRESMins, MaxTRES,                 
                            MaxJobs, MaxNodes, MaxSubmitJobs, MaxWall, QOS,
                            ParentID, ParentName, Partition, RGT,          
                            User, WithRawQOS                               
                                                                           
       Cluster            - Classification, Cluster, ClusterNodes,         
                            ControlHost, ControlPort, DefaultQOS,          
                            Fairshare, Flags, GrpTRESMins, GrpTRES GrpJobs,
                            GrpMemory, GrpNodes, GrpSubmitJob, MaxTRESMins, 
                            MaxTRES, MaxJobs, MaxNodes, MaxSubmitJobs,     
                            MaxWall, NodeCount, PluginIDSelect, RPC, TRES  
                                                                           
       Event              - Cluster, ClusterNodes, Duration, End,          
                            Event, EventRaw, NodeName, Reason, Start,      
                            State, StateRaw, TRES, User                    
                                                                           
       QOS                - Description, Flags, GraceTime, GrpJobs,        
                            GrpSubmitJob, GrpTRES, GrpTRESMins, GrpWall,   
                            MaxJobs, MaxSubmitJobsPerUser, MaxTRESMins,    
                            MaxTRESPerJob, MaxTRESPerNode, MaxTRESPerUser, 
                            MaxWall, Name, Preempt, PreemptMode,           
                            Priority, UsageFactor, UsageThreshold          
                                                                           
       Resource           - Cluster, Count, CountAllowed, CountUsed,       
                            Description, Flags, Manager, Name,             
                            PercentAllowed, PercentUsed, Server, Type      
                                                                           
       Reservation        - Assoc, Cluster, End, Flags, ID, Name,          
                            NodeNames, Start, TRES, UnusedWall             
                                                                           
       RunAwayJobs        - Cluster, ID, Name, Partition, State,           
                            TimeStart, TimeEnd                             
                                                                           
       Transactions       - Action, Actor, Info, TimeStamp, Where          
                                                                           
       TRES               - ID, Name, Type                                 
                                                                           
       User               - AdminLevel, Coordinators, DefaultAccount,      
                            DefaultWCKey, User                             
                                                                           
       WCKey              - Cluster, ID, Name, User                        
                                                                           
       Account/User WithAssoc option will also honor                       
       all of the options for Association.                                 
                                                                           
                                                                           
  All commands entitys, and options are case-insensitive.               

)TXT";

constexpr std::string_view k_sstat_help =
    R"TXT(sstat [<OPTION>] -j <job(.stepid)>                                          
    Valid <OPTION> values are:                                              
      -a, --allsteps:                                                       
                   Print all steps for the given job(s) when no step is     
                   specified.                                               
      -e, --helpformat:                                                     
	           Print a list of fields that can be specified with the    
	           '--format' option                                        
     -h, --help:   Print this description of use.                           
     -i, --pidformat:                                                       
                   Predefined format to list the pids running for each      
                   job step.  (JobId,Nodes,Pids)                            
     -j, --jobs:                                                            
	           Format is <job(.step)>. Stat this job step               
                   or comma-separated list of job steps. This option is     
                   required.  The step portion will default to the lowest   
                   numbered (not batch, extern, etc) step running if not    
                   specified, unless the --allsteps flag is set where not   
                   specifying a step will result in all running steps       
                   to be displayed. A step id of 'batch' will display the   
                   information about the batch step. A step id of 'extern'  
                   will display the information about the extern step       
                   when using PrologFlags=contain.                          
     -n, --noheader:                                                        
	           No header will be added to the beginning of output.      
                   The default is to print a header.                        
     --noconvert:  Don't convert units from their original type             
		   (e.g. 2048M won't be converted to 2G).                   
     -o, --format:                                                          
	           Comma separated list of fields. (use "--helpformat"    
                   for a list of available fields).                         
     -p, --parsable: output will be '|' delimited with a '|' at the end     
     -P, --parsable2: output will be '|' delimited without a '|' at the end 
     --usage:      Display brief usage message.                             
     -v, --verbose:                                                         
	           Primarily for debugging purposes, report the state of    
                   various variables during processing.                     
     -V, --version: Print version.                                          

)TXT";
constexpr std::string_view k_sstat_usage = R"TXT(Usage: sstat [options] -j <job(.stepid)>
	Use --help for help
)TXT";

// sacctmgr's and sshare's --usage print their whole help, as in Slurm
// (sacctmgr.c maps --usage to -h; sshare.c's OPT_LONG_USAGE calls _usage()).
constexpr ToolTexts k_texts[] = {
    {"sinfo", k_sinfo_help, k_sinfo_usage},         {"squeue", k_squeue_help, k_squeue_usage},
    {"scancel", k_scancel_help, k_scancel_usage},   {"sacct", k_sacct_help, k_sacct_usage},
    {"sprio", k_sprio_help, k_sprio_usage},         {"sshare", k_sshare_help, k_sshare_help},
    {"sacctmgr", k_sacctmgr_help, k_sacctmgr_help}, {"sstat", k_sstat_help, k_sstat_usage},
};

const ToolTexts* find(std::string_view tool) {
  for (const ToolTexts& t : k_texts) {
    if (t.tool == tool) return &t;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string_view> slurm_help_text(std::string_view tool) {
  // scontrol's -h, --help and --usage print what `scontrol help` prints, its
  // options and every command (scontrol.c maps all three to _usage()).
  if (tool == "scontrol") return tools::scontrol_help::text();
  const ToolTexts* t = find(tool);
  if (t == nullptr) return std::nullopt;
  return t->help;
}

std::optional<std::string_view> slurm_usage_text(std::string_view tool) {
  if (tool == "scontrol") return tools::scontrol_help::text();
  const ToolTexts* t = find(tool);
  if (t == nullptr || t->usage.empty()) return std::nullopt;
  return t->usage;
}

}  // namespace stint::cli
